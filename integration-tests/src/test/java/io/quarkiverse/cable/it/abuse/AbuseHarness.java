package io.quarkiverse.cable.it.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.awaitility.Awaitility;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import com.sun.management.GcInfo;

import io.quarkiverse.cable.Cable;
import io.vertx.core.json.JsonObject;

/**
 * What every abuse case shares: a healthy Action Cable client beside the attackers, measuring each broadcast's
 * latency and checking it receives every one, in order; the broadcasts, in rounds small enough for a healthy client's
 * outbound bound; the application JVM's memory (heap and direct buffers, after a GC) around the attack; and the
 * case's line of the abuse table (printed, and appended to {@code target/abuse-table.txt}).
 */
public final class AbuseHarness {

    /** Broadcasts per round: a burst well inside one connection's pending-bytes bound. */
    static final int ROUND = 40;
    /** Rounds of each phase: the baseline (also the memory control) and the attack, equal so they compare. */
    static final int BASELINE_ROUNDS = 6;
    static final int ATTACK_ROUNDS = BASELINE_ROUNDS;
    /** How often a baseline whose control shrank is measured again before the case goes on with the last one. */
    private static final int BASELINE_ATTEMPTS = 3;
    /** A memory reading within this of the previous one counts as settled (a few of the rounds' broadcasts). */
    private static final long SETTLED_BYTES = 64 * 1024;
    /**
     * The baseline p99 a comparison starts from (issue 45's bound): a baseline under 100 ms counts as 100 ms, so that
     * three times a baseline of a few milliseconds (scheduling noise on a shared 2-core machine) is not the bound. A
     * case whose healthy p99 cannot stay within three times that shows why with a control measured in the same run.
     */
    static final double P99_FLOOR_MILLIS = 100;
    private static final String PAD = "p".repeat(2048);

    private final Cable cable;
    private final String room = "abuse-" + System.nanoTime();
    private final HealthyClient healthy;
    private int sent;

    private AbuseHarness(Cable cable, URI base) throws Exception {
        this.cable = cable;
        this.healthy = new HealthyClient(base, room);
    }

    static AbuseHarness start(Cable cable, URI base) throws Exception {
        return new AbuseHarness(cable, base);
    }

    /** The cable channel the healthy client streams ({@code chat:<room>}); attackers may join it. */
    String channel() {
        return "chat:" + room;
    }

    String room() {
        return room;
    }

    /**
     * The baseline phase: rounds without an attack, for the healthy client's baseline latencies and for what the same
     * rounds grow the memory by without an attack (H2 keeps the messages table in this heap): the control that the
     * attack's growth is measured against.
     */
    Baseline baseline() throws Exception {
        return baseline(List::of);
    }

    /**
     * The baseline phase with {@code alongside} started at its beginning and awaited at its end: what the attack phase
     * does apart from the attack itself (broadcasts it stores to a channel nobody streams), so that the control
     * contains it too.
     */
    Baseline baseline(java.util.concurrent.Callable<List<CompletableFuture<Void>>> alongside) throws Exception {
        Baseline baseline = null;
        for (int attempt = 0; attempt < BASELINE_ATTEMPTS; attempt++) {
            long before = settledMemory();
            List<CompletableFuture<Void>> load = alongside.call();
            List<Double> latencies = rounds(BASELINE_ROUNDS);
            CompletableFuture.allOf(load.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            long after = usedMemory();
            baseline = new Baseline(latencies, after - before, after);
            // The rounds store their broadcasts (H2 keeps them in this heap), so the control grows. One that shrank
            // measured something else freeing memory meanwhile (an earlier case's connections, H2 releasing the
            // pages of an earlier flood as it writes): it would leave the attack phase's own storage uncounted for.
            // CI failed on that once (control -3.4 MB, the attack's 0.6 MB all storage); the next try starts later.
            if (baseline.controlGrowth() >= 0) {
                return baseline;
            }
            System.out.printf("ABUSE-BASELINE control shrank by %d bytes, measuring the baseline again%n",
                    -baseline.controlGrowth());
        }
        return baseline;
    }

    /** The baseline latencies, the memory growth of the baseline rounds, and the memory used after them. */
    record Baseline(List<Double> latencies, long controlGrowth, long usedAfter) {
    }

    /** Broadcasts {@code rounds} rounds, waiting after each for the healthy client; returns their latencies. */
    List<Double> rounds(int rounds) throws Exception {
        int from = healthy.latencies.size();
        for (int r = 0; r < rounds; r++) {
            List<CompletableFuture<Void>> commits = new ArrayList<>();
            for (int i = 0; i < ROUND; i++, sent++) {
                commits.add(cable.broadcast(channel(), sent + ":" + System.nanoTime() + ":" + PAD)
                        .toCompletableFuture());
            }
            CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            int expected = sent;
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> healthy.sequence.size() >= expected);
        }
        return new ArrayList<>(healthy.latencies.subList(from, healthy.latencies.size()));
    }

    /** Every broadcast reached the healthy client exactly once, in order, and it is still connected. */
    void assertHealthyReceivedEverything() {
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < sent; i++) {
            expected.add(i);
        }
        assertThat(healthy.sequence).containsExactlyElementsOf(expected);
        assertThat(healthy.closed).isNotDone();
    }

    void close() {
        healthy.close();
    }

    static double p99(List<Double> latencies) {
        List<Double> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        return sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * 0.99) - 1));
    }

    /**
     * Heap used plus direct buffers used (JDK direct buffers and Netty's own), after a full GC. A direct buffer's
     * memory is freed by its cleaner after the GC found it unreachable, on another thread: the reading is repeated
     * (a GC before each) until it stops falling, for at most about a second.
     */
    static long usedMemory() throws InterruptedException {
        long used = readAfterGc();
        for (int i = 0; i < 20; i++) {
            Thread.sleep(50);
            long again = readAfterGc();
            if (again >= used) {
                return Math.min(used, again);
            }
            used = again;
        }
        return used;
    }

    /**
     * {@link #usedMemory()} once what an earlier case released has been freed: readings a quarter of a second apart
     * until one is no more than {@link #SETTLED_BYTES} below the one before, for at most about 10 seconds.
     */
    static long settledMemory() throws InterruptedException {
        long used = usedMemory();
        for (int i = 0; i < 40; i++) {
            Thread.sleep(250);
            long again = usedMemory();
            if (again >= used - SETTLED_BYTES) {
                return Math.min(used, again);
            }
            used = again;
        }
        return used;
    }

    private static long readAfterGc() {
        long heap = liveHeapAfterGc();
        long direct = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                direct += pool.getMemoryUsed();
            }
        }
        long netty = io.netty.util.internal.PlatformDependent.usedDirectMemory();
        return heap + direct + Math.max(0, netty);
    }

    /**
     * The heap a full GC left: the pools' usage as that GC ended, read from its own record. The heap's usage read
     * after {@code System.gc()} returns also counts what every running thread allocated since (each takes a fresh
     * allocation buffer at once: the event loops, the pollers, H2, the healthy client), which moved readings by about
     * 0.75 MiB either way: more than a 512 KiB bound. Falls back to that reading where the JVM keeps no GC record.
     */
    private static long liveHeapAfterGc() {
        Map<String, Long> counts = new HashMap<>();
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        for (GarbageCollectorMXBean collector : collectors) {
            counts.put(collector.getName(), collector.getCollectionCount());
        }
        System.gc();
        GcInfo last = null;
        for (GarbageCollectorMXBean collector : collectors) {
            if (collector instanceof com.sun.management.GarbageCollectorMXBean record
                    && collector.getCollectionCount() > counts.get(collector.getName())) {
                GcInfo info = record.getLastGcInfo();
                if (info != null && (last == null || info.getEndTime() > last.getEndTime())) {
                    last = info;
                }
            }
        }
        if (last == null) {
            return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        }
        long heap = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage after = last.getMemoryUsageAfterGc().get(pool.getName());
            if (pool.getType() == MemoryType.HEAP && after != null) {
                heap += after.getUsed();
            }
        }
        return heap;
    }

    /**
     * Checks the healthy client's p99 under attack against three times its baseline, and the memory growth of the
     * attack phase (less the growth of the same rounds without an attack) against {@code boundBytes} plus 10 %, and
     * records the case's line of the abuse table.
     */
    static void report(String name, Baseline baseline, List<Double> attack, long usedAfterAttack, long boundBytes)
            throws Exception {
        report(name, baseline, attack, usedAfterAttack, boundBytes, P99_FLOOR_MILLIS);
    }

    /**
     * {@link #report(String, Baseline, List, long, long)} with another floor: only for a case whose healthy p99 is
     * shown, by a control in the same run, not to hold at 100 ms for a reason of the server not yet bounded (its
     * comment says which, security.adoc says it is open).
     */
    static void report(String name, Baseline baseline, List<Double> attack, long usedAfterAttack, long boundBytes,
            double floorMillis) throws Exception {
        double base = p99(baseline.latencies());
        double under = p99(attack);
        long raw = usedAfterAttack - baseline.usedAfter();
        // The control stands for what the same rounds store without an attack. One that shrank (a GC freed what an
        // earlier case left) says nothing of that, and subtracting it would count the earlier garbage against the
        // attackers: it counts as nothing.
        long growth = raw - Math.max(0, baseline.controlGrowth());
        String line = String.format(java.util.Locale.ROOT,
                "| %s | %.1f ms | %.1f ms | %.2f MiB | %.2f MiB | %.2f MiB |", name, base, under, growth / 1048576.0,
                raw / 1048576.0, boundBytes / 1048576.0);
        System.out.println("ABUSE-TABLE " + line);
        Path table = Path.of("target", "abuse-table.txt");
        Files.writeString(table, line + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        assertThat(under).as("healthy p99 under attack, baseline p99 %.1f ms (floor %.0f ms)", base, floorMillis)
                .isLessThanOrEqualTo(3 * Math.max(base, floorMillis));
        assertThat(growth).as("heap + direct memory growth of the attack (%d bytes before the control's %d), bound"
                + " %d bytes + 10%%", raw, baseline.controlGrowth(), boundBytes)
                .isLessThanOrEqualTo((long) (boundBytes * 1.1));
    }

    /** The healthy Action Cable client (the JDK's WebSocket client, reading everything). */
    static final class HealthyClient {
        final List<Integer> sequence = new CopyOnWriteArrayList<>();
        final List<Double> latencies = new CopyOnWriteArrayList<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        private final CompletableFuture<Void> confirmed = new CompletableFuture<>();
        private final WebSocket socket;

        HealthyClient(URI base, String room) throws Exception {
            String identifier = new JsonObject().put("channel", "ChatChannel").put("room", room).encode();
            CompletableFuture<Void> welcomed = new CompletableFuture<>();
            socket = HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("actioncable-v1-json")
                    .buildAsync(URI.create("ws://127.0.0.1:" + base.getPort() + "/cable?user=healthy"),
                            new WebSocket.Listener() {
                                private final StringBuilder partial = new StringBuilder();

                                @Override
                                public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                                    partial.append(data);
                                    if (last) {
                                        JsonObject frame = new JsonObject(partial.toString());
                                        partial.setLength(0);
                                        if ("welcome".equals(frame.getString("type"))) {
                                            welcomed.complete(null);
                                        } else if ("confirm_subscription".equals(frame.getString("type"))) {
                                            confirmed.complete(null);
                                        } else if (frame.getValue("message") instanceof String message) {
                                            String[] parts = message.split(":", 3);
                                            sequence.add(Integer.parseInt(parts[0]));
                                            latencies.add((System.nanoTime() - Long.parseLong(parts[1])) / 1e6);
                                        }
                                    }
                                    ws.request(1);
                                    return null;
                                }

                                @Override
                                public CompletionStage<?> onClose(WebSocket ws, int code, String reason) {
                                    closed.complete(code);
                                    return null;
                                }

                                @Override
                                public void onError(WebSocket ws, Throwable error) {
                                    closed.complete(1006);
                                }
                            })
                    .get(30, TimeUnit.SECONDS);
            welcomed.get(30, TimeUnit.SECONDS);
            socket.sendText(new JsonObject().put("command", "subscribe").put("identifier", identifier).encode(), true)
                    .get(30, TimeUnit.SECONDS);
            confirmed.get(30, TimeUnit.SECONDS);
        }

        void close() {
            socket.abort();
        }
    }

    /**
     * Log records of the cable, for the log-hygiene case and the no-OutOfMemoryError check: registered on a test class
     * ({@code @RegisterExtension static final}), it listens from before the class's first test and, after its last,
     * checks that no {@code OutOfMemoryError} was logged and stops listening.
     */
    static final class CableLog extends Handler implements BeforeAllCallback, AfterAllCallback {
        private static final Logger LOGGER = Logger.getLogger("io.quarkiverse.cable");
        final List<LogRecord> records = new CopyOnWriteArrayList<>();

        @Override
        public void beforeAll(ExtensionContext context) {
            LOGGER.addHandler(this);
        }

        @Override
        public void afterAll(ExtensionContext context) {
            LOGGER.removeHandler(this);
            assertThat(sawOutOfMemory()).as("an OutOfMemoryError was logged").isFalse();
        }

        static String text(LogRecord record) {
            return record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
        }

        boolean sawOutOfMemory() {
            return records.stream().anyMatch(r -> String.valueOf(text(r)).contains("OutOfMemoryError")
                    || r.getThrown() instanceof OutOfMemoryError);
        }

        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
