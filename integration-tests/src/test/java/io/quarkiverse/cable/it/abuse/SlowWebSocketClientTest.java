package io.quarkiverse.cable.it.abuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Vertx;
import io.vertx.core.http.ClientWebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;

/** A client that stops reading is closed with 1008; a client in the same room keeps receiving everything. */
@QuarkusTest
@OncePerServer
@TestProfile(SlowWebSocketClientTest.SmallOutbox.class)
public class SlowWebSocketClientTest {

    /**
     * A stall timeout short enough for tests, long enough that a reader which is merely starved of CPU is not taken
     * for a stalled one: the clients share the server's JVM and event loops, and on a loaded 2-core machine (a clean
     * CI run at load average 20) healthy readers of ThousandClientsTest went 5 s without a completed write.
     */
    public static class SmallOutbox implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.websocket.stall-timeout", "15s",
                    "quarkus.cable.action-cable.identification-timeout", "10s");
        }
    }

    private static final int BATCH = 100;
    private static final String PAYLOAD = "x".repeat(16 * 1024);
    private static final String BULK = "b".repeat(64 * 1024);

    @TestHTTPResource("/")
    URI base;

    @Inject
    Vertx vertx;

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Test
    void slowClientIsClosedAndOthersAreNotDisturbed() throws Exception {
        String room = "slow-" + System.nanoTime();
        long slowBefore = engine.stats().failures(Failure.SLOW_CONSUMER);
        try (WsClient slow = WsClient.connect(vertx, base, "/rooms/" + room).awaitFrame("ready");
                WsClient healthy = WsClient.connect(vertx, base, "/rooms/" + room).awaitFrame("ready")) {
            slow.stopReading();
            // Keep broadcasting until the stalled client is closed: its socket buffers fill, its writes stop
            // completing, and after the stall timeout the next frame for it closes it. The healthy client catches up
            // after every batch, so its own writes keep completing however loaded the machine is.
            int sent = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (engine.stats().failures(Failure.SLOW_CONSUMER) == slowBefore
                    && System.nanoTime() < deadline) {
                List<CompletableFuture<Void>> commits = new ArrayList<>();
                for (int i = 0; i < BATCH; i++, sent++) {
                    commits.add(cable.broadcast("room:" + room, sent + ":" + PAYLOAD).toCompletableFuture());
                }
                CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                healthy.awaitFrames(sent + 1, Duration.ofMinutes(2));
            }
            // Reading again, the stalled client gets what was buffered and then the close frame.
            slow.resumeReading();
            assertThat(slow.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1008);
            assertThat(slow.closeReason).startsWith("cable: client too slow");

            healthy.awaitFrames(sent + 1, Duration.ofMinutes(3));
            for (int i = 0; i < sent; i++) {
                assertThat(healthy.received.get(i + 1)).startsWith(i + ":");
            }
            assertThat(engine.subscribersByChannel().get("room:" + room)).isEqualTo(1);
        }
    }

    /**
     * A client that stalls after the last frame it was sent is closed, and its stream stopped, without another frame:
     * the stall is checked periodically, not only when a frame is sent, so no stream outlives a stalled connection
     * while its channel is quiet.
     */
    @Test
    void clientStalledAfterTheLastFrameIsClosedWithoutAnotherFrame() throws Exception {
        String channel = "quiet-" + System.nanoTime();
        long slowBefore = engine.stats().failures(Failure.SLOW_CONSUMER);
        WebSocketClient client = vertx.createWebSocketClient(new WebSocketClientOptions().setReceiveBufferSize(8192));
        try {
            ClientWebSocket socket = client.webSocket();
            CompletableFuture<Void> started = new CompletableFuture<>();
            CompletableFuture<Short> closed = new CompletableFuture<>();
            socket.textMessageHandler(text -> {
                if (text.equals("started:" + channel)) {
                    socket.pause(); // never reads again, until told below
                    started.complete(null);
                }
            });
            socket.closeHandler(ignored -> closed.complete(socket.closeStatusCode()));
            socket.connect(new WebSocketConnectOptions().setHost(base.getHost()).setPort(base.getPort())
                    .setURI("/feed")).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            socket.writeTextMessage("start:" + channel);
            started.get(60, TimeUnit.SECONDS);
            // One burst, more than the socket buffers hold, then silence.
            List<CompletableFuture<Void>> commits = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                commits.add(cable.broadcast(channel, i + ":" + BULK).toCompletableFuture());
            }
            CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(120))
                    .until(() -> !engine.subscribersByChannel().containsKey(channel));
            assertThat(engine.stats().failures(Failure.SLOW_CONSUMER)).isGreaterThan(slowBefore);
            socket.resume();
            assertThat(closed.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1008);
        } finally {
            client.close();
        }
    }

    /**
     * An Action Cable connection that is neither welcomed nor refused (its identification hangs) gets no pings and is
     * closed with 1011 after the identification timeout, so the client reconnects instead of waiting forever.
     */
    @Test
    void actionCableConnectionNotOpenedInTimeIsClosed() throws Exception {
        try (WsClient hung = WsClient.connect(vertx, base, "/cable?user=hung", "actioncable-v1-json")) {
            assertThat(hung.closeStatus.get(120, TimeUnit.SECONDS)).isEqualTo((short) 1011);
            assertThat(hung.received).isEmpty();
        }
    }
}
