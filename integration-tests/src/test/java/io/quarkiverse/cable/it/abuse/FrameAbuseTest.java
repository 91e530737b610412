package io.quarkiverse.cable.it.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The abuse suite's cases for WebSocket frames themselves (issue 45), beside a healthy Action Cable client as in
 * {@link AbuseTest} (same profile, so the same application), with issue 45's bound: the healthy p99 at most three
 * times its baseline of the same run, the baseline floored at 100 ms.
 */
@QuarkusTest
@DatabaseIndependent
@TestProfile(AbuseTest.Limits.class)
public class FrameAbuseTest {

    /** Pings each attacker sends at most (6 bytes each): before the bound, a pong queued for each. */
    private static final int PINGS = 300_000;
    private static final int PINGS_PER_WRITE = 1000;
    /** Pongs each pong attacker sends at most (6 bytes each), stopping when it is closed. */
    private static final int PONGS = 2_000_000;
    @RegisterExtension
    static final AbuseHarness.CableLog log = new AbuseHarness.CableLog();
    /** The attackers' own threads: each blocks on its socket, which the common pool (one thread on 2 cores) cannot. */
    private static final java.util.concurrent.ExecutorService ATTACKERS = java.util.concurrent.Executors
            .newCachedThreadPool(task -> {
                Thread thread = new Thread(task, "frame-attacker");
                thread.setDaemon(true);
                return thread;
            });

    @TestHTTPResource("/")
    URI base;

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    /**
     * Item 4: attackers that ping as fast as they can and never read, on the Action Cable endpoint, on a
     * {@code @StreamFrom} endpoint whose channel is quiet (nothing of the cable's own is ever pending there) and on a
     * {@code CableStreams} endpoint. Each is closed within its first second of pings and its socket released, counted
     * as {@code ping_rate}; what they made the server hold stays within what an attacker may hold.
     */
    @Test
    void pingFloodIsClosed() throws Exception {
        String[] paths = { "/cable?user=pinger0", "/cable?user=pinger1", "/rooms/quiet-" + System.nanoTime(), "/feed" };
        String[] protocols = { "actioncable-v1-json", "actioncable-v1-json", null, null };
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            long refusedBefore = engine.stats().refusals(CableStats.Refusal.PING_RATE);
            List<RawWsClient> attackers = new ArrayList<>();
            for (int i = 0; i < paths.length; i++) {
                attackers.add(RawWsClient.connect(base, paths[i], protocols[i], 4096));
            }
            List<CompletableFuture<Integer>> floods = new ArrayList<>();
            for (RawWsClient attacker : attackers) {
                floods.add(CompletableFuture.supplyAsync(() -> flood(attacker)));
            }
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            for (CompletableFuture<Integer> flood : floods) {
                flood.get(120, TimeUnit.SECONDS);
            }
            long used = AbuseHarness.usedMemory();
            for (int r = 0; r < AbuseHarness.ATTACK_ROUNDS; r++) {
                System.out.printf("ABUSE-ROUND %d max %.1f ms%n", r, attack.subList(r * AbuseHarness.ROUND,
                        (r + 1) * AbuseHarness.ROUND).stream().mapToDouble(Double::doubleValue).max().orElse(0));
            }
            for (int i = 0; i < attackers.size(); i++) {
                RawWsClient attacker = attackers.get(i);
                // The close frame waits behind the pongs and the socket is released at once: the attacker reads what
                // its buffers held, then the end of the connection (1006), or the close frame when it got through.
                RawWsClient.Closed closed = attacker.readUntilClosed(Duration.ofSeconds(60));
                assertThat(closed.code()).as(paths[i] + ": " + closed.reason()).isIn(1008, 1006);
            }
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(
                    () -> engine.stats().refusals(CableStats.Refusal.PING_RATE) - refusedBefore >= paths.length);
            assertThat(engine.stats().refusals(CableStats.Refusal.PING_RATE) - refusedBefore).isEqualTo(paths.length);
            for (RawWsClient attacker : attackers) {
                attacker.close();
            }
            harness.assertHealthyReceivedEverything();
            AbuseHarness.report("ping flood, never reading (4: 2 Action Cable, @StreamFrom, CableStreams)", baseline,
                    attack, used, paths.length * AbuseTest.PER_ATTACKER);
        } finally {
            harness.close();
        }
    }

    /**
     * Issue 45, left from item 4: unsolicited pongs as fast as the attacker can send them, on the Action Cable
     * endpoint and on a {@code @StreamFrom} endpoint whose channel is quiet. A pong makes the server write nothing, but
     * each one is decoded, handed to Vert.x and WebSockets Next (the cable's pong deadline, an endpoint's
     * {@code @OnPongMessage}) on the connection's event loop, which it shares with other clients. Each attacker is
     * closed with 1008 within its first second of pongs, counted as {@code pong_rate}; a client answering the
     * server's pings, and one sending a few unsolicited pongs a second as a heartbeat, stays.
     */
    @Test
    void pongFloodIsClosed() throws Exception {
        String[] paths = { "/cable?user=ponger0", "/cable?user=ponger1", "/rooms/quiet-" + System.nanoTime() };
        String[] protocols = { AbuseTest.V1, AbuseTest.V1, null };
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            long refusedBefore = engine.stats().refusals(CableStats.Refusal.PONG_RATE);
            java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory
                    .getOperatingSystemMXBean();
            long cpuBefore = ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
            long started = System.nanoTime();
            List<RawWsClient> attackers = new ArrayList<>();
            List<CompletableFuture<RawWsClient.Closed>> closes = new ArrayList<>();
            List<CompletableFuture<Integer>> floods = new ArrayList<>();
            for (int i = 0; i < paths.length; i++) {
                RawWsClient attacker = RawWsClient.connect(base, paths[i], protocols[i], 65536);
                attackers.add(attacker);
                CompletableFuture<RawWsClient.Closed> closed = closeOf(attacker);
                closes.add(closed);
                floods.add(CompletableFuture.supplyAsync(() -> pongFlood(attacker, closed), ATTACKERS));
            }
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            int sent = 0;
            for (CompletableFuture<Integer> flood : floods) {
                sent += flood.get(180, TimeUnit.SECONDS);
            }
            long cpuMillis = (((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() - cpuBefore)
                    / 1_000_000;
            long used = AbuseHarness.usedMemory();
            // Printed before the assertions, so a run without the bound shows what the flood cost too.
            System.out.printf("ABUSE-PONGS %d pongs from %d attackers in %d ms, process CPU %d ms, healthy p99 %.1f ms"
                    + " (baseline %.1f ms), raw memory growth %.2f MiB%n", sent, paths.length,
                    (System.nanoTime() - started) / 1_000_000, cpuMillis, AbuseHarness.p99(attack),
                    AbuseHarness.p99(baseline.latencies()), (used - baseline.usedAfter()) / 1048576.0);
            for (int i = 0; i < paths.length; i++) {
                RawWsClient.Closed end = closes.get(i).get(120, TimeUnit.SECONDS);
                assertThat(end.code()).as(paths[i] + ": " + end.reason()).isIn(1008, 1006);
                attackers.get(i).close();
            }
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(
                    () -> engine.stats().refusals(CableStats.Refusal.PONG_RATE) - refusedBefore >= paths.length);
            assertThat(engine.stats().refusals(CableStats.Refusal.PONG_RATE) - refusedBefore).isEqualTo(paths.length);
            harness.assertHealthyReceivedEverything();
            AbuseHarness.report("unsolicited pong flood (3: 2 Action Cable, @StreamFrom)", baseline, attack, used,
                    paths.length * AbuseTest.PER_ATTACKER);
        } finally {
            harness.close();
        }
    }

    /**
     * The other side of the pong bound: a client that sends a few unsolicited pongs every second (a heartbeat, as RFC
     * 6455 allows) and one that pings now and then, each for three seconds, are served as before.
     */
    @Test
    void heartbeatPongsAndPingsPass() throws Exception {
        for (boolean pongs : new boolean[] { true, false }) {
            try (RawWsClient client = RawWsClient.connect(base, "/cable?user=heartbeat", AbuseTest.V1, 65536)) {
                client.readTexts(1, Duration.ofSeconds(60)); // the welcome
                for (int second = 0; second < 3; second++) {
                    if (pongs) {
                        client.sendPongs(5);
                    } else {
                        client.sendPings(5);
                    }
                    Thread.sleep(1100);
                }
                client.sendText("{\"command\":\"subscribe\",\"identifier\":\"{\\\"channel\\\":\\\"Nope\\\"}\"}");
                assertThat(client.readTexts(1, Duration.ofSeconds(60)).get(0)).contains("reject_subscription");
            }
        }
    }

    /**
     * Item 9: the documented {@code CableStreams} pattern ({@code FeedSocket}, {@code /feed}) under 2,000 refused
     * {@code start:} frames whose channel carries CR/LF, ESC, NEL, LS, and a right-to-left override: no ERROR line
     * and no stack trace from WebSockets Next (the refusal is answered), the cable's own line at most once per second,
     * with none of those characters raw.
     */
    @Test
    void refusedStreamStartsAreLoggedSafely() throws Exception {
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        AbuseHarness.CableLog everything = new AbuseHarness.CableLog();
        root.addHandler(everything);
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            int from = everything.records.size();
            long started = System.nanoTime();
            // A reserved channel: refused by the cable, with the client's text in the refusal.
            String forged = "cable:whispers\r\n2026-01-01 00:00:00,000 ERROR [io.quarkus] forged\u001b[31m\u0085nel"
                    + "\u2028ls\u202erlo";
            RawWsClient attacker = RawWsClient.connect(base, "/feed", null, 65536);
            // The attacker reads its answers (the application's replies are not the cable's output to bound).
            // Counted, not kept: the test's own copy of 2,000 answers would count as the server's memory.
            CompletableFuture<Long> read = CompletableFuture.supplyAsync(() -> {
                try {
                    return attacker.readTexts(2000, Duration.ofSeconds(120)).stream()
                            .filter(answer -> answer.startsWith("refused:")).count();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            for (int i = 0; i < 2000; i++) {
                attacker.sendText("start:" + forged);
            }
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            long refusedAnswers = read.get(180, TimeUnit.SECONDS);
            long used = AbuseHarness.usedMemory();
            assertThat(refusedAnswers).as("answers 'refused:'").isEqualTo(2000);
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + 1;
            attacker.close();
            List<java.util.logging.LogRecord> records = new ArrayList<>(
                    everything.records.subList(from, everything.records.size()));
            assertThat(records).allSatisfy(r -> {
                String text = String.valueOf(AbuseHarness.CableLog.text(r));
                assertThat(r.getLevel().intValue()).as(text).isLessThan(java.util.logging.Level.SEVERE.intValue());
                assertThat(r.getThrown()).as(text).isNull();
                assertThat(text).doesNotContain("\r", "\n", "\u001b", "\u0085", "\u2028", "\u202e");
            });
            List<java.util.logging.LogRecord> refusals = records.stream()
                    .filter(r -> String.valueOf(AbuseHarness.CableLog.text(r)).contains("CableStreams.start refused"))
                    .toList();
            assertThat(refusals).isNotEmpty();
            assertThat(refusals.size()).isLessThanOrEqualTo((int) seconds + 1);
            harness.assertHealthyReceivedEverything();
            AbuseHarness.report("2,000 refused CableStreams starts, forged log lines (1)", baseline, attack, used,
                    AbuseTest.PER_ATTACKER);
        } finally {
            root.removeHandler(everything);
            harness.close();
        }
    }

    /**
     * Low list: binary frames to Action Cable, a text protocol, used to be logged and dropped after Vert.x had
     * assembled each one, outside the command rate: one connection sent 1.8 GB in 11 s and was never closed. Its first
     * binary frame now closes it with 1003 (unsupported data), counted as {@code unsupported_data}, and what it goes on
     * sending is dropped unread; the healthy client beside it keeps issue 45's bound.
     */
    @Test
    void binaryFramesAreClosedWith1003() throws Exception {
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            long refusedBefore = engine.stats().refusals(CableStats.Refusal.UNSUPPORTED_DATA);
            RawWsClient attacker = RawWsClient.connect(base, "/cable?user=binary", AbuseTest.V1, 65536);
            CompletableFuture<RawWsClient.Closed> closed = closeOf(attacker);
            byte[] junk = new byte[60_000];
            java.util.concurrent.ThreadLocalRandom.current().nextBytes(junk);
            CompletableFuture<Long> flood = CompletableFuture.supplyAsync(() -> {
                long sent = 0;
                try {
                    // At most 600 MB: the server used to take all of it; it stops when the close frame arrives.
                    while (!closed.isDone() && sent < 600_000_000L) {
                        attacker.sendBinary(junk);
                        sent += junk.length;
                    }
                } catch (IOException reset) {
                    // the server ended the connection while the attacker still sent: the point
                }
                return sent;
            }, ATTACKERS);
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            long sent = flood.get(120, TimeUnit.SECONDS);
            long used = AbuseHarness.usedMemory();
            RawWsClient.Closed end = closed.get(120, TimeUnit.SECONDS);
            System.out.printf("ABUSE-BINARY %d bytes sent before the close%n", sent);
            assertThat(end.code()).as(end.reason()).isEqualTo(1003);
            attacker.close();
            assertThat(engine.stats().refusals(CableStats.Refusal.UNSUPPORTED_DATA) - refusedBefore).isEqualTo(1);
            harness.assertHealthyReceivedEverything();
            AbuseHarness.report("binary frames to Action Cable (Low)", baseline, attack, used, AbuseTest.PER_ATTACKER);
        } finally {
            harness.close();
        }
    }

    /**
     * Low list: a command over {@code max-command-size} (64 KiB) in one frame over the server's frame size (64 KiB),
     * in one frame of 1 MB, and in fragments of 50,000 bytes making 640 KB (which Vert.x used to drop without a word,
     * past its message size): each is closed with exactly 1009, the close frame reaching the client although it is
     * still sending (the server reads and drops the rest for a moment instead of resetting the connection), and
     * counted as {@code command_size}.
     */
    @Test
    void oversizedCommandsAreClosedWith1009() throws Exception {
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            long refusedBefore = engine.stats().refusals(CableStats.Refusal.COMMAND_SIZE);
            List<CompletableFuture<RawWsClient.Closed>> closes = new ArrayList<>();
            List<RawWsClient> attackers = new ArrayList<>();
            for (int size : new int[] { 100_000, 1_000_000, -640_000 }) {
                RawWsClient attacker = RawWsClient.connect(base, "/cable?user=big", AbuseTest.V1, 65536);
                attackers.add(attacker);
                closes.add(closeOf(attacker));
                String command = "{\"command\":\"message\",\"identifier\":\"" + "b".repeat(Math.abs(size)) + "\"}";
                try {
                    if (size > 0) {
                        attacker.sendText(command);
                    } else {
                        attacker.sendFragmentedText(command, 50_000);
                    }
                } catch (IOException reset) {
                    // ended while sending: the code read decides
                }
            }
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            long used = AbuseHarness.usedMemory();
            for (CompletableFuture<RawWsClient.Closed> close : closes) {
                RawWsClient.Closed end = close.get(120, TimeUnit.SECONDS);
                assertThat(end.code()).as(end.reason()).isEqualTo(1009);
            }
            for (RawWsClient attacker : attackers) {
                attacker.close();
            }
            assertThat(engine.stats().refusals(CableStats.Refusal.COMMAND_SIZE) - refusedBefore).isEqualTo(3);
            harness.assertHealthyReceivedEverything();
            AbuseHarness.report("commands of 100 KB, 1 MB and 640 KB in fragments (Low)", baseline, attack, used,
                    3 * AbuseTest.PER_ATTACKER);
        } finally {
            harness.close();
        }
    }

    /**
     * The 1009 reaches a client that is still sending its oversized frame and has not read what the server wrote to
     * it before (a round of broadcasts; the client's receive buffer is 4 KiB): once its write is done, it reads the
     * whole round, then the close frame, and nothing after it. A guard of the order and of the code: on loopback it
     * passes with or without the server's drain of the refused input (measured), which is there for real networks.
     */
    @Test
    void closeFrameReachesAClientThatHasNotReadYet() throws Exception {
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try (RawWsClient attacker = RawWsClient.connect(base, "/cable?user=unread", AbuseTest.V1, 4096)) {
            String identifier = "{\"channel\":\"ChatChannel\",\"room\":\"" + harness.room() + "\"}";
            attacker.readTexts(1, Duration.ofSeconds(60)); // the welcome
            attacker.sendText(new io.vertx.core.json.JsonObject().put("command", "subscribe")
                    .put("identifier", identifier).encode());
            assertThat(attacker.readTexts(1, Duration.ofSeconds(60)).get(0)).contains("confirm_subscription");
            // A round of 40 broadcasts of 2 KiB, which the healthy client has read when this returns; the attacker
            // reads none of it yet.
            harness.rounds(1);
            try {
                attacker.sendText("{\"command\":\"message\",\"identifier\":\"" + "b".repeat(1_000_000) + "\"}");
            } catch (IOException reset) {
                // the server reset the connection while this was sent: the read below sees it
            }
            RawWsClient.Closed end = attacker.readUntilClosed(Duration.ofSeconds(60));
            assertThat(end.code()).as(end.reason()).isEqualTo(1009);
            assertThat(end.texts()).as("the round written before the close").hasSize(AbuseHarness.ROUND);
        } finally {
            harness.close();
        }
    }

    /**
     * Low list: a text frame that is not UTF-8 (also one whose last character is cut at the end of the message) is
     * closed with 1007 (invalid payload data), a frame with a reserved bit set and no extension negotiated with 1002
     * (protocol error); each counted as {@code invalid}. A correct text frame split inside a character between
     * fragments still passes.
     */
    @Test
    void invalidUtf8AndReservedBitsAreProtocolErrors() throws Exception {
        long invalidBefore = engine.stats().failures(io.quarkiverse.cable.spi.Failure.INVALID);
        byte[] notUtf8 = { '{', '"', (byte) 0xC3, (byte) 0x28, '"', '}' };
        byte[] cutCharacter = { '"', (byte) 0xE2, (byte) 0x82 };
        byte[][] payloads = { notUtf8, cutCharacter, "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8) };
        int[] heads = { 0x81, 0x81, 0x81 | 0x40 };
        int[] codes = { 1007, 1007, 1002 };
        for (int i = 0; i < payloads.length; i++) {
            try (RawWsClient attacker = RawWsClient.connect(base, "/cable?user=bad", AbuseTest.V1, 65536)) {
                CompletableFuture<RawWsClient.Closed> closed = closeOf(attacker);
                attacker.sendFrame(heads[i], payloads[i]);
                RawWsClient.Closed end = closed.get(120, TimeUnit.SECONDS);
                assertThat(end.code()).as("case " + i + ": " + end.reason()).isEqualTo(codes[i]);
            }
        }
        assertThat(engine.stats().failures(io.quarkiverse.cable.spi.Failure.INVALID) - invalidBefore)
                .isGreaterThanOrEqualTo(payloads.length);
        // "é" split between its two bytes across a text frame and its continuation: valid, a command (unknown).
        try (RawWsClient client = RawWsClient.connect(base, "/cable?user=split", AbuseTest.V1, 65536)) {
            client.readTexts(1, Duration.ofSeconds(60)); // the welcome
            client.sendFrame(0x01, new byte[] { '{', '"', 'x', (byte) 0xC3 });
            client.sendFrame(0x80, new byte[] { (byte) 0xA9, '"', ':', '1', '}' });
            client.sendText("{\"command\":\"subscribe\",\"identifier\":\"{\\\"channel\\\":\\\"Nope\\\"}\"}");
            assertThat(client.readTexts(1, Duration.ofSeconds(60)).get(0)).contains("reject_subscription");
        }
    }

    /** Reads {@code attacker}'s frames on another thread until the server closes it: its close code. */
    private static CompletableFuture<RawWsClient.Closed> closeOf(RawWsClient attacker) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return attacker.readUntilClosed(Duration.ofSeconds(60));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, ATTACKERS);
    }

    /**
     * Sends pongs until the server closes the connection, for at most {@link #PONGS}; returns how many went. Reads
     * nothing itself ({@code closed} does).
     */
    private static int pongFlood(RawWsClient attacker, CompletableFuture<RawWsClient.Closed> closed) {
        int sent = 0;
        try {
            while (sent < PONGS && !closed.isDone()) {
                attacker.sendPongs(PINGS_PER_WRITE);
                sent += PINGS_PER_WRITE;
            }
        } catch (IOException reset) {
            // the server ended the connection while the attacker still sent: the point
        }
        return sent;
    }

    /** Sends pings until {@link #PINGS} or until the server ends the connection; returns how many went. */
    private static int flood(RawWsClient attacker) {
        long started = System.nanoTime();
        int sent = 0;
        try {
            while (sent < PINGS) {
                attacker.sendPings(PINGS_PER_WRITE);
                sent += PINGS_PER_WRITE;
            }
        } catch (IOException reset) {
            // the server ended the connection while its buffers still took pings: the point
        }
        System.out.printf("ABUSE-PINGS %d pings in %d ms%n", sent, (System.nanoTime() - started) / 1_000_000);
        return sent;
    }
}
