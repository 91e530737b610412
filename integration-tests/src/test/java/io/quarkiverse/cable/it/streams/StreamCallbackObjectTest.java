package io.quarkiverse.cable.it.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;

/** A {@code StreamCallback} may return an object: the connection receives its JSON (FeedSocket's "json" stream). */
@DatabaseIndependent
@QuarkusTest
public class StreamCallbackObjectTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    Vertx vertx;

    @Inject
    Cable cable;

    @Test
    void anObjectReturnedByTheCallbackIsSentAsJson() throws Exception {
        String channel = "json-" + System.nanoTime();
        try (WsClient client = WsClient.connect(vertx, base, "/feed")) {
            client.send("json:" + channel);
            client.awaitFrame("started:" + channel);
            cable.broadcast(channel, "hello").toCompletableFuture().get(60, TimeUnit.SECONDS);
            client.awaitFrames(2);
            assertThat(client.received.get(1)).isEqualTo("{\"channel\":\"" + channel + "\",\"text\":\"hello\"}");
        }
    }
}
