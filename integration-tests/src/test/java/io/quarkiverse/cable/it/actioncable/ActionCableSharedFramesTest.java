package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import jakarta.inject.Inject;

import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.runtime.internals.SharedFrameWriter;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * The Action Cable endpoint writes each broadcast from one UTF-8 buffer shared by all its subscribers
 * (SharedTextFrame). Every subscriber must still get every frame whole, byte for byte, in order: multi-byte
 * characters, frames right at and above the 64 KiB fragment size, small frames between long ones. A Vert.x client
 * with its default options refuses any frame over 64 KiB, so it also proves long frames are fragmented as
 * {@code writeTextMessage} fragments them. A connection that negotiated {@code permessage-deflate} gets its frames
 * compressed (through Vert.x's encoder); every other connection gets each frame as one shared, pre-encoded buffer.
 */
@QuarkusTest
@DatabaseIndependent
public class ActionCableSharedFramesTest {

    private static final String V1 = "actioncable-v1-json";
    private static Vertx vertx;

    @Inject
    Cable cable;

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
    void everySubscriberGetsEveryBroadcastWholeAndInOrder() throws Exception {
        String room = "shared-" + System.nanoTime();
        String identifier = new JsonObject().put("channel", "ChatChannel").put("room", room).encode();
        String envelope = "{\"identifier\":" + Json.encode(identifier) + ",\"message\":";
        // Sizes of the whole frame in UTF-8 bytes: small, exactly one fragment, one byte over, several fragments of
        // multi-byte text (a fragment boundary falls inside a character: the client must join bytes, not text).
        List<String> payloads = List.of(
                payload(1, ""),
                payload(2, "a".repeat(65_536 - utf8Length(envelope + payload(2, "") + "}"))),
                payload(3, "b".repeat(65_537 - utf8Length(envelope + payload(3, "") + "}"))),
                payload(4, ""),
                payload(5, "ü€𝄞".repeat(20_000)),
                payload(6, ""));
        List<String> expected = payloads.stream().map(payload -> envelope + payload + "}").toList();
        assertThat(utf8Length(expected.get(1))).isEqualTo(65_536);
        assertThat(utf8Length(expected.get(2))).isEqualTo(65_537);

        List<String> vertxFrames = new CopyOnWriteArrayList<>();
        List<String> compressedFrames = new CopyOnWriteArrayList<>();
        // Attached until the welcomes: each connection's writer is chosen as it opens, before its welcome.
        WriterChoices choices = WriterChoices.attach();
        WebSocket vertxClient = connect(new WebSocketClientOptions(), "/cable?user=vera", vertxFrames);
        WebSocket compressedClient = connect(new WebSocketClientOptions().setTryUsePerMessageCompression(true),
                "/cable?user=carl", compressedFrames);
        try (choices;
                WsClient alice = WsClient.connect(vertx, base, "/cable?user=alice", V1);
                WsClient bob = WsClient.connect(vertx, base, "/cable?user=bob", V1)) {
            for (WsClient client : new WsClient[] { alice, bob }) {
                client.awaitFrame("{\"type\":\"welcome\"}");
                client.send(subscribe(identifier));
                client.awaitFrame(confirmation(identifier));
            }
            for (WebSocket client : List.of(vertxClient, compressedClient)) {
                List<String> frames = client == vertxClient ? vertxFrames : compressedFrames;
                await().atMost(Collector.TIMEOUT).until(() -> frames.contains("{\"type\":\"welcome\"}"));
                client.writeTextMessage(subscribe(identifier));
                await().atMost(Collector.TIMEOUT).until(() -> frames.contains(confirmation(identifier)));
            }
            assertThat(choices.of(vertxClient)).as("plain connection").contains("written whole");
            assertThat(choices.of(compressedClient)).as("permessage-deflate").contains("written as Vert.x frames");

            for (String payload : payloads) {
                cable.broadcast("chat:" + room, payload).toCompletableFuture().get(60, TimeUnit.SECONDS);
            }

            alice.awaitFrame(expected.get(expected.size() - 1));
            bob.awaitFrame(expected.get(expected.size() - 1));
            await().atMost(Collector.TIMEOUT)
                    .until(() -> vertxFrames.contains(expected.get(expected.size() - 1)) || vertxClient.isClosed());
            await().atMost(Collector.TIMEOUT).until(
                    () -> compressedFrames.contains(expected.get(expected.size() - 1)) || compressedClient.isClosed());
            assertThat(vertxClient.isClosed()).as("the Vert.x client refused a frame (over 64 KiB?)").isFalse();
            assertThat(compressedClient.isClosed()).isFalse();
            assertThat(broadcasts(alice.received, envelope)).containsExactlyElementsOf(expected);
            assertThat(broadcasts(bob.received, envelope)).containsExactlyElementsOf(expected);
            assertThat(broadcasts(vertxFrames, envelope)).containsExactlyElementsOf(expected);
            assertThat(broadcasts(compressedFrames, envelope)).containsExactlyElementsOf(expected);
        } finally {
            vertxClient.close();
            compressedClient.close();
        }
    }

    private WebSocket connect(WebSocketClientOptions options, String path, List<String> frames) throws Exception {
        // The handler is set before connecting: set once the connect future completes, it could miss a welcome that
        // came first (the future's callbacks run late when this thread is slow to register them).
        return vertx.createWebSocketClient(options).webSocket()
                .textMessageHandler(frames::add)
                .connect(new WebSocketConnectOptions().setHost(base.getHost()).setPort(base.getPort())
                        .setURI(path).setSubProtocols(List.of(V1)))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /** The shared-frame writer each connection got, from its debug line (keyed by the client's address). */
    private static final class WriterChoices extends Handler implements AutoCloseable {

        private static final Logger LOGGER = Logger.getLogger(SharedFrameWriter.class.getName());

        private final List<String> lines = new CopyOnWriteArrayList<>();
        private final Level level = LOGGER.getLevel();

        static WriterChoices attach() {
            WriterChoices choices = new WriterChoices();
            LOGGER.setLevel(Level.FINE);
            LOGGER.addHandler(choices);
            return choices;
        }

        String of(WebSocket client) {
            String from = "WebSocket from " + client.localAddress() + ":";
            return lines.stream().filter(line -> line.startsWith(from)).findFirst().orElse("(no line for " + from + ")");
        }

        @Override
        public void publish(LogRecord record) {
            lines.add(record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            LOGGER.removeHandler(this);
            LOGGER.setLevel(level);
        }
    }

    private static List<String> broadcasts(List<String> frames, String envelope) {
        return frames.stream().filter(frame -> frame.startsWith(envelope)).toList();
    }

    private static String payload(int n, String text) {
        return "{\"n\":" + n + ",\"text\":\"" + text + "\"}";
    }

    private static int utf8Length(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    private static String subscribe(String identifier) {
        return new JsonObject().put("command", "subscribe").put("identifier", identifier).encode();
    }

    private static String confirmation(String identifier) {
        return "{\"identifier\":" + Json.encode(identifier) + ",\"type\":\"confirm_subscription\"}";
    }
}
