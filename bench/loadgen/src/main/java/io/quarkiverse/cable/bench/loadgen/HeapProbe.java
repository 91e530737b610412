package io.quarkiverse.cable.bench.loadgen;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads the server's heap after a full collection ({@code GET /bench/heap} of the bench server). Called from the
 * run's main thread only, never from an event loop: the server collects garbage before it answers.
 */
final class HeapProbe {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI url;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    HeapProbe(URI url) {
        this.url = url;
    }

    /** The server's heap in use after a full collection, in bytes. */
    long usedBytes() throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(60)).GET()
                .build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + url + " answered " + response.statusCode() + ": " + response.body());
        }
        JsonNode used = JSON.readTree(response.body()).get("usedBytes");
        if (used == null || !used.canConvertToLong()) {
            throw new IOException("GET " + url + " answered no usedBytes: " + response.body());
        }
        return used.asLong();
    }
}
