package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * The Action Cable endpoint seen only from outside (a WebSocket client, no injection), so that
 * {@link ActionCableEndpointPackagedIT} runs the same checks against the packaged application.
 */
@DatabaseIndependent
@QuarkusTest
public class ActionCableEndpointTest {

    private static final String V1 = "actioncable-v1-json";
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
    void actionBroadcastsThroughTheDatabaseToTheRoom() throws Exception {
        String room = "packaged-" + System.nanoTime();
        String identifier = new JsonObject().put("channel", "ChatChannel").put("room", room).encode();
        try (WsClient alice = WsClient.connect(vertx, base, "/cable?user=alice", V1);
                WsClient bob = WsClient.connect(vertx, base, "/cable?user=bob", V1)) {
            for (WsClient client : new WsClient[] { alice, bob }) {
                client.awaitFrame("{\"type\":\"welcome\"}");
                client.send(command("subscribe", identifier, null));
                client.awaitFrame(confirmation(identifier));
            }
            alice.send(command("message", identifier, new JsonObject().put("action", "speak").put("text", "hi")));
            String expected = "{\"identifier\":" + Json.encode(identifier)
                    + ",\"message\":{\"text\":\"hi\",\"user\":\"alice\"}}";
            alice.awaitFrame(expected);
            bob.awaitFrame(expected);
            assertThat(bob.received).filteredOn(expected::equals).hasSize(1);
        }
    }

    @Test
    void aRejectedSubscriptionIsAnswered() throws Exception {
        String identifier = new JsonObject().put("channel", "ChatChannel").put("room", "forbidden").encode();
        try (WsClient client = WsClient.connect(vertx, base, "/cable?user=carol", V1)) {
            client.awaitFrame("{\"type\":\"welcome\"}");
            client.send(command("subscribe", identifier, null));
            client.awaitFrame("{\"identifier\":" + Json.encode(identifier) + ",\"type\":\"reject_subscription\"}");
        }
    }

    private static String command(String command, String identifier, JsonObject data) {
        JsonObject frame = new JsonObject().put("command", command).put("identifier", identifier);
        if (data != null) {
            frame.put("data", data.encode());
        }
        return frame.encode();
    }

    private static String confirmation(String identifier) {
        return "{\"identifier\":" + Json.encode(identifier) + ",\"type\":\"confirm_subscription\"}";
    }
}
