package io.quarkiverse.cable.it.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.abuse.AbuseTest;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Issue 45 item 12: the demo had {@code /stream/{channel}}, an SSE endpoint open to anonymous clients that streamed
 * any channel through {@code Cable.subscribe}, past every {@code StreamAuthorization}: whispers with their senders'
 * session ids, presence events, other users' identity channels, {@code private:*}. No page used it; it is gone. An
 * anonymous client asking for those channels gets 404 and subscribes to nothing.
 */
@QuarkusTest
@DatabaseIndependent
@TestProfile(AbuseTest.Limits.class)
public class DemoStreamEndpointTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    @Internal
    CableEngine engine;

    @Test
    void noAnonymousStreamOfAnyChannel() throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
        for (String channel : new String[] { "cable:whispers", "cable:presence", "private:alice", "chat:lobby" }) {
            // The cable streams its own reserved channels (whispers, presence, control): only a new subscriber counts.
            Integer before = engine.subscribersByChannel().get(channel);
            HttpRequest request = HttpRequest.newBuilder(base.resolve("/stream/" + channel))
                    .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(30)).GET().build();
            // The response's head only: a stream that was served would never end.
            HttpResponse<java.io.InputStream> response = client.sendAsync(request,
                    HttpResponse.BodyHandlers.ofInputStream()).get(30, java.util.concurrent.TimeUnit.SECONDS);
            response.body().close();
            assertThat(response.statusCode()).as(channel).isEqualTo(404);
            assertThat(engine.subscribersByChannel().get(channel)).as(channel).isEqualTo(before);
        }
    }
}
