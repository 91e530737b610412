package io.quarkiverse.cable.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import io.vertx.core.json.Json;

/**
 * Posts exactly what the {@code anycable} gem's {@code http} broadcast adapter posts (anycable-rb,
 * {@code BroadcastAdapters::Http} and {@code Base}): {@code POST <url>} with {@code Content-Type: application/json}
 * and {@code Authorization: Bearer <broadcast_key>}; the body {@code {"stream":...,"data":...}} where {@code data}
 * is the message already encoded as JSON text (Rails' {@code ActionCable.server.broadcast}), {@code meta} only when
 * given; inside {@code batching { }} a JSON array of those. The gem treats any answer but {@code 201 Created} as an
 * error. Keep-alive: one client, reused.
 */
public final class GemBroadcaster {

    public static final String SECRET = "integration-tests-broadcast-secret";

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI url;
    private final String secret;

    public GemBroadcaster(URI base, String secret) {
        this.url = base.resolve("/_broadcast");
        this.secret = secret;
    }

    /** {@code broadcast(stream, payload)} outside batching: one object. */
    public HttpResponse<String> broadcast(String stream, String jsonData) throws IOException, InterruptedException {
        return post(item(stream, jsonData));
    }

    /** {@code batching { broadcast(...) ... }}: one array. */
    public HttpResponse<String> batch(String stream, List<String> jsonData) throws IOException, InterruptedException {
        return post(jsonData.stream().map(data -> item(stream, data)).collect(Collectors.joining(",", "[", "]")));
    }

    public HttpResponse<String> post(String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json");
        if (secret != null) {
            request.header("Authorization", "Bearer " + secret);
        }
        return client.send(request.POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    public static String item(String stream, String jsonData) {
        return "{\"stream\":" + Json.encode(stream) + ",\"data\":" + Json.encode(jsonData) + "}";
    }
}
