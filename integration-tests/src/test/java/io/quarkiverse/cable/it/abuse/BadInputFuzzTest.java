package io.quarkiverse.cable.it.abuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableConnections;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ClientWebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;

/**
 * Generated bad input, at least 10,000 frames a run, on the Action Cable endpoint and on a {@code @StreamFrom}
 * endpoint: random JSON shapes, deep nesting, huge identifiers, binary garbage (which ends an Action Cable connection),
 * commands sent before the welcome and after the server closed the connection. Throughout, a healthy client on each endpoint
 * keeps receiving broadcasts;
 * the fuzzing connections only ever get the answers the Action Cable page documents; failures are counted but logged
 * at most once per second per kind; the heap stays bounded. The random generator is seeded: the seed is printed, and
 * {@code -Dfuzz.seed=N} replays a run.
 */
@QuarkusTest
@DatabaseIndependent
public class BadInputFuzzTest {

    private static final int ROUNDS = 20;
    private static final int CONNECTIONS_PER_ROUND = 6;
    private static final int FRAMES_PER_CONNECTION = 90;
    private static final int MAX_COMMAND = 64 * 1024;
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Set<String> DOCUMENTED_TYPES = Set.of("welcome", "ping", "confirm_subscription",
            "reject_subscription", "disconnect");
    private static final String[] COMMANDS = { "subscribe", "unsubscribe", "message", "pong", "", "SUBSCRIBE",
            "perform", "subscribe\u0000" };
    private static final String[] KEYS = { "command", "identifier", "data", "channel", "action", "room",
            "signed_stream_name", "type", "__proto__", "" };

    @TestHTTPResource("/")
    URI base;

    @Inject
    Vertx vertx;

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    CableConnections connections;

    @Test
    void generatedBadInputLeavesEveryoneElseServed() throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        System.out.println("BadInputFuzzTest seed=" + seed + " (replay with -Dfuzz.seed=" + seed + ")");
        Random random = new Random(seed);
        WarningCounter warnings = WarningCounter.install();
        long started = System.nanoTime();
        long invalidBefore = engine.stats().failures(Failure.INVALID);
        try (WsClient healthy = WsClient.connect(vertx, base, "/cable?user=fuzz-healthy", "actioncable-v1-json");
                WsClient room = WsClient.connect(vertx, base, "/rooms/fuzz-healthy")) {
            String identifier = "{\"channel\":\"ChatChannel\",\"room\":\"fuzz-healthy\"}";
            healthy.awaitFrame("{\"type\":\"welcome\"}");
            healthy.send(new JsonObject().put("command", "subscribe").put("identifier", identifier).encode());
            healthy.awaitFrame(new JsonObject().put("identifier", identifier).put("type", "confirm_subscription").encode());
            room.awaitFrame("ready");
            int baseline = connections.count();
            long heapBefore = usedHeapAfterGc();

            int frames = 0;
            List<Fuzzer> fuzzers = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                List<Fuzzer> thisRound = new ArrayList<>();
                for (int i = 0; i < CONNECTIONS_PER_ROUND; i++) {
                    boolean actionCable = random.nextInt(3) > 0;
                    Fuzzer fuzzer = actionCable
                            ? Fuzzer.open(vertx, base, "/cable?user=fuzz-" + round + "-" + i, "actioncable-v1-json")
                            : Fuzzer.open(vertx, base, "/rooms/fuzz-" + random.nextInt(5));
                    thisRound.add(fuzzer);
                    // No wait for the welcome or "ready": the first frames arrive before it.
                    for (int f = 0; f < FRAMES_PER_CONNECTION; f++) {
                        fuzzer.send(random, frame(random, actionCable));
                        frames++;
                    }
                    int ending = random.nextInt(4);
                    if (ending == 0 || ending == 1 && actionCable) {
                        // Over the command size, or binary to Action Cable: the server closes the connection (1009,
                        // 1003), and what follows arrives after.
                        fuzzer.send(random, ending == 0
                                ? "{\"command\":\"subscribe\",\"identifier\":\"" + "x".repeat(MAX_COMMAND) + "\"}"
                                : randomBytes(random, 1 + random.nextInt(2048)));
                        for (int f = 0; f < 10; f++) {
                            fuzzer.send(random, frame(random, actionCable));
                            frames++;
                        }
                        frames++;
                    }
                }
                for (Fuzzer fuzzer : thisRound) {
                    fuzzer.drain();
                }
                fuzzers.addAll(thisRound);

                String text = "round " + round;
                cable.broadcast("chat:fuzz-healthy", new JsonObject().put("text", text).encode()).toCompletableFuture()
                        .get(60, TimeUnit.SECONDS);
                cable.broadcast("room:fuzz-healthy", text).toCompletableFuture().get(60, TimeUnit.SECONDS);
                healthy.awaitFrame(new JsonObject().put("identifier", identifier)
                        .put("message", new JsonObject().put("text", text)).encode());
                room.awaitFrame(text);
                for (Fuzzer fuzzer : thisRound) {
                    fuzzer.close();
                }
            }
            System.out.println("BadInputFuzzTest sent " + frames + " bad frames on " + fuzzers.size() + " connections");
            assertThat(frames).isGreaterThanOrEqualTo(10_000);

            for (Fuzzer fuzzer : fuzzers) {
                fuzzer.assertAnsweredAsDocumented();
            }
            assertThat(healthy.closeStatus).as("the healthy Action Cable client stays connected").isNotDone();
            assertThat(room.closeStatus).as("the healthy @StreamFrom client stays connected").isNotDone();
            await().atMost(WAIT).until(() -> connections.count() == baseline);

            long invalid = engine.stats().failures(Failure.INVALID) - invalidBefore;
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + 1;
            assertThat(invalid).as("bad frames are counted").isGreaterThan(1_000);
            assertThat(warnings.count.get()).as("%s failures logged at most once per second per kind (%s s)", invalid,
                    seconds).isLessThanOrEqualTo((int) (seconds + 1) * Failure.values().length);

            long heapAfter = usedHeapAfterGc();
            System.out.printf("BadInputFuzzTest used heap after GC: %d MiB before, %d MiB after%n", heapBefore >> 20,
                    heapAfter >> 20);
            assertThat(heapAfter - heapBefore).as("heap growth after GC").isLessThan(64L << 20);
        } finally {
            warnings.uninstall();
        }
    }

    /**
     * One generated frame: text (JSON of some shape, or not JSON) or binary garbage; to Action Cable binary garbage
     * only as a connection's ending (its first binary frame closes the connection, 1003), text garbage here.
     */
    private static Object frame(Random random, boolean actionCable) {
        return switch (random.nextInt(12)) {
            case 0 -> actionCable ? randomText(random, 1 + random.nextInt(2048))
                    : randomBytes(random, 1 + random.nextInt(2048));
            case 1 -> "[".repeat(1 + random.nextInt(20_000)) + "]".repeat(random.nextInt(20_000));
            case 2 -> "{\"a\":".repeat(1 + random.nextInt(8_000)) + "1" + "}".repeat(random.nextInt(8_000));
            case 3 -> command(random.nextBoolean() ? "subscribe" : "message",
                    "{\"channel\":\"ChatChannel\",\"room\":\"" + "r".repeat(random.nextInt(60_000)) + "\"}");
            case 4 -> command("subscribe", "{\"channel\":" + "[".repeat(random.nextInt(5_000)) + "}");
            case 5 -> command("subscribe", "{\"channel\":\"Turbo::StreamsChannel\",\"signed_stream_name\":\""
                    + randomText(random, random.nextInt(300)) + "--" + "ab".repeat(random.nextInt(40)) + "\"}");
            case 6 -> new JsonObject().put("command", "message")
                    .put("identifier", "{\"channel\":\"ChatChannel\",\"room\":\"r\"}")
                    .put("data", String.valueOf(randomJson(random, 0))).encode();
            case 7 -> randomText(random, random.nextInt(500));
            case 8 -> String.valueOf(randomJson(random, 0));
            default -> {
                JsonObject command = new JsonObject();
                command.put("command", COMMANDS[random.nextInt(COMMANDS.length)]);
                if (random.nextInt(5) > 0) {
                    Object identifier = random.nextInt(4) == 0 ? randomJson(random, 0)
                            : "{\"channel\":\"" + (random.nextBoolean() ? "ChatChannel" : randomText(random, 20))
                                    + "\",\"room\":\"fuzz-" + random.nextInt(3) + "\"}";
                    command.put("identifier", identifier);
                }
                if (random.nextBoolean()) {
                    command.put("data", random.nextBoolean() ? String.valueOf(randomJson(random, 0))
                            : "{\"action\":\"" + randomText(random, 10) + "\"}");
                }
                yield command.encode();
            }
        };
    }

    private static String command(String verb, String identifier) {
        return new JsonObject().put("command", verb).put("identifier", identifier).encode();
    }

    private static Object randomJson(Random random, int depth) {
        int kind = depth > 4 ? random.nextInt(4) : random.nextInt(6);
        return switch (kind) {
            case 0 -> random.nextBoolean() ? random.nextLong() : random.nextDouble();
            case 1 -> randomText(random, random.nextInt(40));
            case 2 -> random.nextBoolean();
            case 3 -> null;
            case 4 -> {
                List<Object> list = new ArrayList<>();
                for (int i = random.nextInt(5); i > 0; i--) {
                    list.add(randomJson(random, depth + 1));
                }
                yield new io.vertx.core.json.JsonArray(list);
            }
            default -> {
                JsonObject object = new JsonObject();
                for (int i = random.nextInt(5); i > 0; i--) {
                    object.put(KEYS[random.nextInt(KEYS.length)], randomJson(random, depth + 1));
                }
                yield object;
            }
        };
    }

    private static String randomText(Random random, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(switch (random.nextInt(6)) {
                case 0 -> (char) random.nextInt(0x20);
                case 1 -> (char) (0xD800 + random.nextInt(0x800)); // lone surrogates
                case 2 -> "\"{}[]\\:,"
                        .charAt(random.nextInt(8));
                default -> (char) (0x20 + random.nextInt(0x5F));
            });
        }
        return text.toString();
    }

    private static Buffer randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return Buffer.buffer(bytes);
    }

    private static long usedHeapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** A connection that sends generated frames and records what the server answers. */
    private static final class Fuzzer {
        final boolean actionCable;
        final List<String> received = new CopyOnWriteArrayList<>();
        final CompletableFuture<Short> closed = new CompletableFuture<>();
        final WebSocketClient client;
        final ClientWebSocket socket;
        Future<Void> last = Future.succeededFuture();

        private Fuzzer(boolean actionCable, WebSocketClient client, ClientWebSocket socket) {
            this.actionCable = actionCable;
            this.client = client;
            this.socket = socket;
        }

        static Fuzzer open(Vertx vertx, URI base, String path, String... subProtocols) throws Exception {
            WebSocketClient client = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxFrameSize(4 * MAX_COMMAND)
                    .setMaxMessageSize(4 * MAX_COMMAND));
            WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(base.getHost()).setPort(base.getPort())
                    .setURI(path);
            for (String subProtocol : subProtocols) {
                options.addSubProtocol(subProtocol);
            }
            ClientWebSocket socket = client.webSocket();
            Fuzzer fuzzer = new Fuzzer(subProtocols.length > 0, client, socket);
            socket.textMessageHandler(fuzzer.received::add);
            socket.closeHandler(ignored -> fuzzer.closed.complete(socket.closeStatusCode()));
            socket.exceptionHandler(ignored -> {
            });
            socket.connect(options).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            return fuzzer;
        }

        void send(Random random, Object frame) {
            if (frame instanceof Buffer bytes) {
                write(() -> socket.writeBinaryMessage(bytes));
            } else {
                text((String) frame);
            }
        }

        void text(String frame) {
            write(() -> socket.writeTextMessage(frame));
        }

        private void write(java.util.function.Supplier<Future<Void>> write) {
            if (socket.isClosed()) {
                return; // the server closed it (an oversized frame); later frames have nowhere to go
            }
            last = write.get().recover(failure -> Future.succeededFuture());
        }

        void drain() throws Exception {
            last.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        }

        void close() throws Exception {
            if (!socket.isClosed()) {
                socket.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            }
            client.close();
        }

        /** Only frames the documentation names; only the documented close codes. */
        void assertAnsweredAsDocumented() {
            if (closed.isDone() && closed.join() != null) {
                assertThat(closed.join()).as("close code").isIn((short) 1000, (short) 1003, (short) 1005,
                        (short) 1009);
            }
            for (String frame : received) {
                if (!actionCable) {
                    assertThat(frame).as("a @StreamFrom endpoint only says ready (nobody broadcast on fuzz rooms)")
                            .isEqualTo("ready");
                    continue;
                }
                JsonObject json = new JsonObject(frame);
                String type = json.getString("type");
                if (type == null) {
                    assertThat(json.fieldNames()).as("a broadcast frame: %s", frame).containsExactlyInAnyOrder(
                            "identifier", "message");
                } else {
                    assertThat(type).as("frame %s", frame).isIn(DOCUMENTED_TYPES);
                }
            }
        }
    }

    /** Counts the WARN records of the cable's failure log (category io.quarkiverse.cable) while the test runs. */
    private static final class WarningCounter extends Handler {
        final AtomicInteger count = new AtomicInteger();
        private final Logger logger = Logger.getLogger("io.quarkiverse.cable");

        static WarningCounter install() {
            WarningCounter counter = new WarningCounter();
            counter.logger.addHandler(counter);
            return counter;
        }

        void uninstall() {
            logger.removeHandler(this);
        }

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                count.incrementAndGet();
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
