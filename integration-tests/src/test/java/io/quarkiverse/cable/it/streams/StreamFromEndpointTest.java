package io.quarkiverse.cable.it.streams;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.core.Vertx;

/**
 * A {@code @StreamFrom} WebSockets Next endpoint fed by a REST broadcast, seen only from outside, so that
 * {@link StreamFromEndpointPackagedIT} runs the same checks against the packaged application.
 */
@DatabaseIndependent
@QuarkusTest
public class StreamFromEndpointTest {

    private static Vertx vertx;

    @TestHTTPResource("/")
    URI base;

    @BeforeAll
    static void startClient() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopClient() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void aCommittedBroadcastReachesEveryConnectionOfTheRoom() throws Exception {
        String room = "packaged-" + System.nanoTime();
        try (WsClient first = WsClient.connect(vertx, base, "/rooms/" + room).awaitFrame("ready");
                WsClient second = WsClient.connect(vertx, base, "/rooms/" + room).awaitFrame("ready");
                WsClient elsewhere = WsClient.connect(vertx, base, "/rooms/other-" + room).awaitFrame("ready")) {
            broadcast("room:" + room, "{\"text\":\"one\"}").statusCode(202);
            broadcast("room:" + room, "{\"text\":\"two\"}").statusCode(202);
            broadcast("room:other-" + room, "{\"text\":\"marker\"}").statusCode(202);
            assertThat(first.awaitFrames(3).received).containsExactly("ready", "{\"text\":\"one\"}", "{\"text\":\"two\"}");
            assertThat(second.awaitFrames(3).received).containsExactly("ready", "{\"text\":\"one\"}",
                    "{\"text\":\"two\"}");
            // The marker was broadcast last: once it is here, anything leaking from the other room would be too.
            assertThat(elsewhere.awaitFrames(2).received).containsExactly("ready", "{\"text\":\"marker\"}");
        }
    }

    @Test
    void aChannelNameOverTheLimitIsRefused() {
        broadcast("room:" + "x".repeat(2000), "{}").statusCode(400); // quarkus.cable.max-channel-length is 1024
    }

    private static io.restassured.response.ValidatableResponse broadcast(String channel, String body) {
        return given().contentType(ContentType.TEXT).body(body).post("/broadcast/{channel}", channel).then();
    }
}
