package io.quarkiverse.cable.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkiverse.cable.it.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * A history replay larger than a connection's pending-bytes bound (quarkus.cable.websocket.max-pending-bytes, set to
 * 1 MiB here: the 3 MB replay is three times it) reaches a client that reads, whole and in order, followed by live messages:
 * the replay is paced by the
 * bound (half of it in flight) instead of being queued at once, which would close the client as too slow. On every
 * database: the replay is read from the messages table.
 */
@OncePerServer
@QuarkusTest
@TestProfile(ReplayPacingTest.OneMebibyte.class)
public class ReplayPacingTest {

    public static class OneMebibyte implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.websocket.max-pending-bytes", "1M");
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Inject
    Vertx vertx;

    @Inject
    Cable cable;

    /** What the client received, Action Cable's pings left out. */
    private static List<String> frames(WsClient client) {
        return client.received.stream().filter(f -> !f.startsWith("{\"type\":\"ping\"")).toList();
    }

    @Test
    void aReplayLargerThanTheBoundIsPacedToAReadingClient() throws Exception {
        String room = "paced-" + System.nanoTime();
        String text = "r".repeat(3000);
        List<CompletableFuture<Void>> stored = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            stored.add(cable.broadcast("chat:" + room, "{\"n\":" + i + ",\"text\":\"" + text + "\"}")
                    .toCompletableFuture());
        }
        CompletableFuture.allOf(stored.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        String identifier = new JsonObject().put("channel", "ChatChannel").put("room", room).encode();
        try (WsClient client = WsClient.connect(vertx, base, "/cable", "actioncable-v1-ext-json")) {
            client.awaitFrames(1);
            client.send(new JsonObject().put("command", "subscribe").put("identifier", identifier)
                    .put("history", new JsonObject().put("since", 1)).encode());
            // welcome, confirm_subscription, 1,000 replayed (3 MB), confirm_history
            org.awaitility.Awaitility.await().atMost(Duration.ofMinutes(2)).until(() -> frames(client).size() >= 1003);
            cable.broadcast("chat:" + room, "{\"n\":1000,\"text\":\"live\"}").toCompletableFuture().get(60,
                    TimeUnit.SECONDS);
            org.awaitility.Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> frames(client).size() >= 1004);
            List<String> frames = frames(client);
            assertThat(frames.get(1)).contains("confirm_subscription");
            for (int i = 0; i < 1000; i++) {
                JsonObject frame = new JsonObject(frames.get(2 + i));
                assertThat(frame.getJsonObject("message").getInteger("n")).isEqualTo(i);
            }
            assertThat(frames.get(1002)).contains("confirm_history");
            assertThat(new JsonObject(frames.get(1003)).getJsonObject("message").getInteger("n")).isEqualTo(1000);
            assertThat(client.closeStatus).isNotDone();
        }
    }
}
