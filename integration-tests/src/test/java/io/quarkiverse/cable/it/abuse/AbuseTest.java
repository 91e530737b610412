package io.quarkiverse.cable.it.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.LogRecord;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.presence.PresenceTest;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * The abuse suite (issue 24): one case per bound of what a client may make the server hold or do, each with
 * attackers on bare sockets (loopback, small receive buffers, never reading when that is the attack) and a healthy
 * Action Cable client side by side in the same run. For every case the healthy client receives every broadcast,
 * exactly and in order, with a p99 latency at most three times its baseline of the same run; the application JVM's
 * heap plus direct memory grows by at most the configured bound of what the attackers may hold (+10 %); nothing logs
 * an {@code OutOfMemoryError}; and the attackers are refused with the documented answer. Each case prints its line
 * of the abuse table of the Security page ({@code ABUSE-TABLE}).
 */
@QuarkusTest
@DatabaseIndependent
@TestProfile(AbuseTest.Limits.class)
public class AbuseTest {

    static final long MAX_PENDING = 256 * 1024;
    static final long MAX_QUEUED_BYTES = 256 * 1024;
    /**
     * What one attacker may make the server hold: its pending output and its queued commands (one command beyond the
     * queue's bound is the one refused, never queued).
     */
    static final long PER_ATTACKER = MAX_PENDING + MAX_QUEUED_BYTES;
    /** The subscriptions one connection may hold ({@code quarkus.cable.limits.max-subscriptions}, its default). */
    static final int MAX_SUBSCRIPTIONS = 128;
    /**
     * What one accepted subscription may hold: its identifier, its entry in the channel's subscribers, its mailbox.
     * The 10,000-connection bench measures about 8.4 KB of heap per idle connection with one subscription, socket and
     * session included (performance.adoc); a subscription alone is a part of that.
     */
    static final long PER_SUBSCRIPTION = 4 * 1024;

    /**
     * The bounds a little below their defaults, so each case's margins stand well clear of the noise of a JVM that
     * also runs the clients; the stall timeout is the default (10 s).
     */
    public static class Limits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.websocket.max-pending-bytes", Long.toString(MAX_PENDING),
                    "quarkus.cable.limits.max-queued-command-bytes", Long.toString(MAX_QUEUED_BYTES),
                    "quarkus.cable.action-cable.identification-timeout", "60s");
        }
    }

    /** The floor of the stalled-readers case while what stalling adds is not bounded at 100 ms (see the case). */
    private static final double STALLED_READERS_FLOOR_MILLIS = 1000;

    static final String V1 = "actioncable-v1-json";
    private static final String EXT = "actioncable-v1-ext-json";
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(60);
    @RegisterExtension
    static final AbuseHarness.CableLog log = new AbuseHarness.CableLog();

    @TestHTTPResource("/")
    URI base;

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    /**
     * Item 1: attackers subscribed to a room that is flooded with 64 KB broadcasts, each with its own long identifier
     * (every frame repeats it), stop reading. Each is closed once its pending bytes would pass the bound (the kernel's
     * socket buffers take the first few MB), never buffered further; the healthy client, in another room, receives
     * everything of its own.
     */
    @Test
    void stalledReadersAreBoundedInBytes() throws Exception {
        int attackers = 8;
        String flood = "flood-" + System.nanoTime();
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            // The control stores the same flood to a channel nobody streams (H2 keeps it in this heap).
            AbuseHarness.Baseline baseline = harness.baseline(() -> flood("chat:unheard-" + flood));
            long refusedBefore = engine.stats().refusals(CableStats.Refusal.PENDING_BYTES);
            List<RawWsClient> stalled = new ArrayList<>();
            for (int i = 0; i < attackers; i++) {
                RawWsClient attacker = RawWsClient.connect(base, "/cable?user=attacker" + i, V1, 4096);
                attacker.sendText(subscribe(identifier(flood, i, 3500), null));
                stalled.add(attacker);
            }
            awaitSubscribers("chat:" + flood, attackers);
            // 100 broadcasts of 64 KB: 6.7 MB for each attacker, more than a socket's kernel buffers take.
            List<CompletableFuture<Void>> floods = flood("chat:" + flood);
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            CompletableFuture.allOf(floods.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            // Measured while the flood is delivered, before any stall timeout could end an attacker.
            long used = AbuseHarness.usedMemory();
            Awaitility.await().atMost(Duration.ofSeconds(60))
                    .until(() -> engine.subscribersByChannel().get("chat:" + flood) == null);
            for (RawWsClient attacker : stalled) {
                RawWsClient.Closed closed = attacker.readUntilClosed(CLOSE_WAIT);
                assertThat(closed.code()).isEqualTo(1008);
                assertThat(closed.reason()).isEqualTo("cable: client too slow");
                attacker.close();
            }
            assertThat(engine.stats().refusals(CableStats.Refusal.PENDING_BYTES) - refusedBefore)
                    .isEqualTo(attackers);
            // The control (issue 45, item 2), after the attack's memory was read: the same flood to as many clients
            // that read everything, so the healthy client's p99 under the flood itself stands beside its p99 under the
            // stalled readers (printed as ABUSE-CONTROL).
            String read = "read-" + flood;
            List<RawWsClient> readers = new ArrayList<>();
            try {
                for (int i = 0; i < attackers; i++) {
                    RawWsClient reader = RawWsClient.connect(base, "/cable?user=reader" + i, V1, 1 << 20);
                    reader.readAllInBackground();
                    reader.sendText(subscribe(identifier(read, i, 3500), null));
                    readers.add(reader);
                }
                awaitSubscribers("chat:" + read, attackers);
                List<CompletableFuture<Void>> readFloods = flood("chat:" + read);
                List<Double> control = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
                CompletableFuture.allOf(readFloods.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                System.out.printf(java.util.Locale.ROOT, "ABUSE-CONTROL the same flood to %d reading clients: healthy"
                        + " p99 %.1f ms (baseline %.1f ms, under the stalled readers %.1f ms)%n", attackers,
                        AbuseHarness.p99(control), AbuseHarness.p99(baseline.latencies()), AbuseHarness.p99(attack));
            } finally {
                for (RawWsClient reader : readers) {
                    reader.close();
                }
            }
            harness.assertHealthyReceivedEverything();
            // Open (issue 45, item 2 on WebSocket): the control shows the flood itself (eight frames of 68 KB built and
            // written per broadcast) taking the healthy p99 from about 60 to 120-245 ms here, and the stalled readers
            // adding to that in some runs (124 -> 450 ms, 95 -> 396 ms; 2 of 9 runs over 3x the 100 ms floor on
            // 2026-12-07, machine shared with other suites). Until what the stalling adds is bounded, this case keeps
            // the 1 s floor; its table row and the control say where it stands.
            AbuseHarness.report("stalled readers of 64 KB broadcasts (8, identifiers of 3.5 KiB)", baseline, attack,
                    used, attackers * PER_ATTACKER, STALLED_READERS_FLOOR_MILLIS);
        } finally {
            harness.close();
        }
    }

    /** The payload of each replayed message: 1,000 of them with a 3.5 KiB identifier are 6.6 MB of frames. */
    private static final int REPLAYED = 3000;

    /**
     * Item 1, history: attackers on the extended protocol ask for the replay of 1,000 stored messages and never
     * read. The replay is paced by the pending-bytes bound (half of it in flight), so each holds a bounded part of it
     * until the stall timeout closes it.
     */
    @Test
    void replayToAStalledReaderIsPacedByTheBound() throws Exception {
        int attackers = 8;
        String room = "replayed-" + System.nanoTime();
        List<CompletableFuture<Void>> stored = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            stored.add(cable.broadcast("chat:" + room, "{\"n\":" + i + ",\"text\":\"" + "h".repeat(REPLAYED) + "\"}")
                    .toCompletableFuture());
        }
        CompletableFuture.allOf(stored.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            long served = engine.stats().replaysServed();
            List<RawWsClient> stalled = new ArrayList<>();
            for (int i = 0; i < attackers; i++) {
                RawWsClient attacker = RawWsClient.connect(base, "/cable?user=replayer" + i, EXT, 4096);
                attacker.sendText(subscribe(identifier(room, i, 3500), new JsonObject().put("since", 1)));
                stalled.add(attacker);
            }
            try {
                Awaitility.await().atMost(Duration.ofSeconds(60))
                        .until(() -> engine.stats().replaysServed() >= served + attackers);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                StringBuilder why = new StringBuilder("replays served: " + (engine.stats().replaysServed() - served)
                        + ", failed: " + engine.stats().replayFailures());
                for (var reason : io.quarkiverse.cable.CableException.HistoryUnavailable.Reason.values()) {
                    why.append(", ").append(reason).append(": ").append(engine.stats().replaysRejected(reason));
                }
                throw new AssertionError(why.toString(), e);
            }
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            long used = AbuseHarness.usedMemory();
            // Closed by the stall timeout, not by the bound: the replay waits for room instead of overflowing it.
            Awaitility.await().atMost(CLOSE_WAIT)
                    .until(() -> engine.subscribersByChannel().get("chat:" + room) == null);
            for (RawWsClient attacker : stalled) {
                RawWsClient.Closed closed = attacker.readUntilClosed(CLOSE_WAIT);
                assertThat(closed.code()).isEqualTo(1008);
                assertThat(closed.reason()).isEqualTo("cable: client too slow");
                attacker.close();
            }
            harness.assertHealthyReceivedEverything();
            // The bound: what each may hold waiting, and the replay's messages as read (history.max-replay of them,
            // held until they are written or the connection closes; how many replays read at once is the replay
            // admission's bound).
            AbuseHarness.report("history replay of 1,000 messages to stalled readers (8)", baseline, attack, used,
                    attackers * (PER_ATTACKER + 1000L * (REPLAYED + 200)));
        } finally {
            harness.close();
        }
    }

    /**
     * Issue 45, item 8: 40 connections on the extended protocol each ask 32 replays of the same 500 stored messages
     * (about 1 KB each) at distinct {@code since} values, so no two reads coalesce, and read everything. That is 1,280
     * replays of about 0.55 MB (some 700 MB), within every per-connection bound; the node's replay budget
     * ({@code history.max-replay-bytes-in-flight}, 64 MiB) admits what fits and answers the rest
     * {@code reject_history} (reason busy), while the healthy client keeps the suite's bound and the memory stays
     * within the budget.
     */
    @Test
    void replaysOfManyReadingConnectionsAreBoundedByTheNodesBudget() throws Exception {
        int attackers = 40;
        int perConnection = 32;
        String room = "budget-" + System.nanoTime();
        for (int from = 0; from < 500; from += 100) {
            List<CompletableFuture<Void>> stored = new ArrayList<>();
            for (int i = from; i < from + 100; i++) {
                stored.add(cable.broadcast("chat:" + room, "{\"n\":" + i + ",\"text\":\"" + "b".repeat(1000) + "\"}")
                        .toCompletableFuture());
            }
            CompletableFuture.allOf(stored.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        }
        AbuseHarness harness = AbuseHarness.start(cable, base);
        List<RawWsClient> readers = new ArrayList<>();
        java.util.concurrent.atomic.AtomicLong confirmed = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong rejected = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicBoolean sampling = new java.util.concurrent.atomic.AtomicBoolean(true);
        long[] mostInFlight = new long[1];
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            long overBefore = engine.stats().replaysOverBudget();
            Thread sampler = Thread.ofPlatform().daemon().start(() -> {
                while (sampling.get()) {
                    mostInFlight[0] = Math.max(mostInFlight[0], engine.replayBytesInFlight());
                    java.util.concurrent.locks.LockSupport.parkNanos(2_000_000);
                }
            });
            for (int i = 0; i < attackers; i++) {
                RawWsClient reader = RawWsClient.connect(base, "/cable?user=budget" + i, EXT, 256 * 1024);
                readers.add(reader);
                // A platform thread, as the attacker's own process would be: a virtual one would take a carrier of
                // this JVM (the server's) for each read of a never-ending flood, a cost no real attacker imposes.
                Thread.ofPlatform().daemon().start(() -> countHistoryAnswers(reader, confirmed, rejected));
                for (int k = 0; k < perConnection; k++) {
                    reader.sendText(subscribe(identifier(room, i * perConnection + k, 200),
                            new JsonObject().put("since", 1 + k)));
                }
            }
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            long used = AbuseHarness.usedMemory();
            int asked = attackers * perConnection;
            Awaitility.await().atMost(Duration.ofMinutes(3)).until(() -> confirmed.get() + rejected.get() >= asked);
            sampling.set(false);
            sampler.join(10_000);
            long over = engine.stats().replaysOverBudget() - overBefore;
            System.out.printf(java.util.Locale.ROOT, "WebSocket replay budget: %d replays asked, %d confirmed, %d"
                    + " rejected (%d over the node's budget); most replay bytes in flight %.1f MiB%n", asked,
                    confirmed.get(), rejected.get(), over, mostInFlight[0] / 1048576.0);
            assertThat(confirmed.get() + rejected.get()).isEqualTo(asked);
            assertThat(over).as("replays refused by the node's budget (cable.history.replays.over.budget)")
                    .isPositive();
            assertThat(mostInFlight[0]).as("replay bytes in flight on the node")
                    .isLessThanOrEqualTo(64L * 1024 * 1024);
            harness.assertHealthyReceivedEverything();
            // What they may hold: the budget's replays, each connection's pending output and queued commands, and
            // its subscriptions.
            AbuseHarness.report("1,280 reading replays on 40 connections (issue 45 item 8)", baseline, attack, used,
                    64L * 1024 * 1024 + attackers * (PER_ATTACKER + perConnection * PER_SUBSCRIPTION));
        } finally {
            sampling.set(false);
            for (RawWsClient reader : readers) {
                reader.close();
            }
            harness.close();
        }
        Awaitility.await().atMost(Duration.ofSeconds(60))
                .until(() -> engine.replayBytesInFlight() == 0 && engine.replaysInFlight() == 0);
    }

    /** Reads everything the server sends, counting the history answers ({@code confirm_history}, {@code reject_history}). */
    private static void countHistoryAnswers(RawWsClient reader, java.util.concurrent.atomic.AtomicLong confirmed,
            java.util.concurrent.atomic.AtomicLong rejected) {
        byte[] buffer = new byte[64 * 1024];
        String tail = "";
        try {
            int n;
            while ((n = reader.input().read(buffer)) >= 0) {
                // Server frames are not masked: the frames' text is in the bytes as it is. The tail of the last read
                // goes in front, so an answer split across two reads is counted once.
                String text = tail + new String(buffer, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
                confirmed.addAndGet(occurrences(text, "confirm_history", tail.length()));
                rejected.addAndGet(occurrences(text, "reject_history", tail.length()));
                tail = text.substring(Math.max(0, text.length() - 20));
            }
        } catch (IOException e) {
            // closed by the test
        }
    }

    /** How many times {@code marker} ends past {@code from} in {@code text}. */
    private static int occurrences(String text, String marker, int from) {
        int found = 0;
        for (int at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
            if (at + marker.length() > from) {
                found++;
            }
        }
        return found;
    }

    /**
     * Presence: every subscription of an attacker joins with the largest id and info the server takes, and asks for
     * more (info over {@code max-info-size}, refused). What it makes the server hold is one membership per
     * subscription, each within the id and info bounds, so the subscription bound bounds it; the healthy client's
     * broadcasts go on unharmed.
     */
    @Test
    void presenceJoinsAreBoundedPerSubscription() throws Exception {
        int attackers = 2;
        int rooms = 60; // subscribe, join and a refused join: 180 commands, within the command burst (200)
        String id = "a".repeat(254); // with the attacker's digit, the longest id the server takes (255 characters)
        String info = "\"" + "i".repeat(1000) + "\""; // within max-info-size (1K)
        String tooMuch = "\"" + "i".repeat(2000) + "\"";
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            List<RawWsClient> clients = new ArrayList<>();
            for (int a = 0; a < attackers; a++) {
                RawWsClient attacker = RawWsClient.connect(base, "/cable?user=present" + a, EXT, 65536);
                List<String> identifiers = new ArrayList<>();
                for (int r = 0; r < rooms; r++) {
                    String identifier = new JsonObject().put("channel", "ChatChannel")
                            .put("room", "open-present-" + a + "-" + r).encode(); // open: any id
                    identifiers.add(identifier);
                    attacker.sendText(subscribe(identifier, null));
                }
                assertThat(attacker.readTexts(rooms + 1, Duration.ofSeconds(60)).stream()
                        .filter(frame -> frame.contains("confirm_subscription")).count()).isEqualTo(rooms); // + welcome
                for (String identifier : identifiers) {
                    attacker.sendText(PresenceTest.join(identifier, Json.encode(id + a), info));
                    attacker.sendText(PresenceTest.join(identifier, Json.encode(id + a), tooMuch));
                }
                clients.add(attacker);
            }
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            long used = AbuseHarness.usedMemory();
            for (RawWsClient attacker : clients) {
                List<String> frames = attacker.readTexts(2 * rooms, Duration.ofSeconds(60));
                assertThat(frames.stream().filter(f -> f.contains("\"type\":\"join\"")).count())
                        .as("one membership per subscription").isEqualTo(rooms);
                assertThat(frames.stream().filter(f -> f.contains("\"type\":\"error\"")).count())
                        .as("every info over max-info-size refused").isEqualTo(rooms);
                attacker.close();
            }
            harness.assertHealthyReceivedEverything();
            // Each membership is an id of 255 characters and 1 KiB of info, kept by the node for its session and
            // written three times to the database (the set's row, the session's row, the join event's message):
            // this suite runs on H2, whose tables live in this heap, so at most 12 KiB a membership (measured: about
            // 10 with the subscription's own objects).
            AbuseHarness.report("presence joins on 60 subscriptions (2)", baseline, attack, used,
                    attackers * (PER_ATTACKER + rooms * 12288L));
        } finally {
            harness.close();
        }
    }

    /** Item 4: identifiers over the limit are rejected, so they never multiply the frames of a subscription. */
    @Test
    void oversizedIdentifiersAreRejected() throws Exception {
        int attackers = 8;
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            List<RawWsClient> clients = new ArrayList<>();
            for (int i = 0; i < attackers; i++) {
                RawWsClient attacker = RawWsClient.connect(base, "/cable?user=long" + i, V1, 4096);
                attacker.sendText(subscribe(identifier(harness.room(), i, 60_000), null));
                List<String> frames = attacker.readTexts(2, Duration.ofSeconds(60));
                assertThat(frames.get(1)).contains("\"type\":\"reject_subscription\"");
                clients.add(attacker); // stays connected and stops reading: nothing of the room reaches it
            }
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            long used = AbuseHarness.usedMemory();
            assertThat(engine.subscribersByChannel().get(harness.channel())).isEqualTo(1);
            for (RawWsClient attacker : clients) {
                attacker.close();
            }
            harness.assertHealthyReceivedEverything();
            AbuseHarness.report("identifiers of 60 KB (8)", baseline, attack, used, attackers * PER_ATTACKER);
        } finally {
            harness.close();
        }
    }

    /**
     * Item 4: one connection subscribing to 180 rooms gets 128 and reject_subscription for the rest. The 128 it keeps
     * are allowed their own state on top of the pending output and queued commands every attacker may fill (a CI run
     * measured 1.16 MiB for the two attackers, over a bound that had left the subscriptions out).
     */
    @Test
    void subscriptionsPerConnectionAreBounded() throws Exception {
        int attackers = 2;
        int rooms = 180; // within the command burst (200): the rate limit is another case
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            List<RawWsClient> clients = new ArrayList<>();
            for (int a = 0; a < attackers; a++) {
                RawWsClient attacker = RawWsClient.connect(base, "/cable?user=many" + a, V1, 65536);
                for (int r = 0; r < rooms; r++) {
                    attacker.sendText(subscribe(new JsonObject().put("channel", "ChatChannel")
                            .put("room", "many-" + a + "-" + r).encode(), null));
                }
                clients.add(attacker);
            }
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            long used = AbuseHarness.usedMemory();
            for (RawWsClient attacker : clients) {
                List<String> frames = attacker.readTexts(rooms + 1, Duration.ofSeconds(60));
                assertThat(frames.stream().filter(f -> f.contains("confirm_subscription")).count())
                        .isEqualTo(MAX_SUBSCRIPTIONS);
                assertThat(frames.stream().filter(f -> f.contains("reject_subscription")).count())
                        .isEqualTo(rooms - MAX_SUBSCRIPTIONS);
                attacker.close();
            }
            harness.assertHealthyReceivedEverything();
            AbuseHarness.report("180 subscriptions per connection (2)", baseline, attack, used,
                    attackers * (PER_ATTACKER + MAX_SUBSCRIPTIONS * PER_SUBSCRIPTION));
        } finally {
            harness.close();
        }
    }

    /**
     * Item 6: commands sent while identification is still running wait for it, bounded in bytes: over the bound the
     * connection is told to try again later (1013), and what it sent is not retained.
     */
    @Test
    void commandsQueuedBeforeIdentificationAreBounded() throws Exception {
        int attackers = 4;
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            String filler = "q".repeat(60_000);
            List<RawWsClient> clients = new ArrayList<>();
            for (int a = 0; a < attackers; a++) {
                // user=hung: identification hangs (ChatIdentification), as a slow remote check would.
                RawWsClient attacker = RawWsClient.connect(base, "/cable?user=hung", V1, 65536);
                try {
                    for (int i = 0; i < 100; i++) {
                        attacker.sendText(new JsonObject().put("command", "message").put("identifier", "x")
                                .put("data", filler).encode());
                    }
                } catch (IOException refusedMeanwhile) {
                    // the server closed the connection while the attacker was still sending: the point
                }
                clients.add(attacker);
            }
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            long used = AbuseHarness.usedMemory();
            for (RawWsClient attacker : clients) {
                RawWsClient.Closed closed = attacker.readUntilClosed(CLOSE_WAIT);
                assertThat(closed.code()).isEqualTo(1013);
                assertThat(closed.reason()).isEqualTo("command_queue");
                assertThat(closed.texts()).containsExactly(
                        "{\"type\":\"disconnect\",\"reason\":\"too_many_pending_commands\",\"reconnect\":true}");
                attacker.close();
            }
            harness.assertHealthyReceivedEverything();
            AbuseHarness.report("6 MB of commands during identification (4)", baseline, attack, used,
                    attackers * PER_ATTACKER);
        } finally {
            harness.close();
        }
    }

    /** Item 6: a connection sending commands faster than the rate is disconnected (1008, no reconnect). */
    @Test
    void commandRateIsBounded() throws Exception {
        int attackers = 4;
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            List<RawWsClient> clients = new ArrayList<>();
            String junk = new JsonObject().put("command", "unsubscribe").put("identifier", "{}").encode();
            for (int a = 0; a < attackers; a++) {
                RawWsClient attacker = RawWsClient.connect(base, "/cable?user=flood" + a, V1, 65536);
                try {
                    for (int i = 0; i < 2000; i++) {
                        attacker.sendText(junk);
                    }
                } catch (IOException refusedMeanwhile) {
                    // closed while sending
                }
                clients.add(attacker);
            }
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            long used = AbuseHarness.usedMemory();
            for (RawWsClient attacker : clients) {
                RawWsClient.Closed closed = attacker.readUntilClosed(CLOSE_WAIT);
                assertThat(closed.code()).isEqualTo(1008);
                assertThat(closed.reason()).isEqualTo("command_rate");
                assertThat(closed.texts()).contains(
                        "{\"type\":\"disconnect\",\"reason\":\"too_many_commands\",\"reconnect\":false}");
                attacker.close();
            }
            harness.assertHealthyReceivedEverything();
            AbuseHarness.report("2,000 commands at once (4)", baseline, attack, used, attackers * PER_ATTACKER);
        } finally {
            harness.close();
        }
    }

    /**
     * Item 9: a command over {@code max-command-size} is closed with 1009 (message too big), not 1006, in fragments
     * and in a single frame over the WebSocket frame size. The single frame is refused as soon as its header is read,
     * while the client is still sending the rest: the server reads and drops that rest for a moment before it closes
     * the socket, since closing it with unread input makes the kernel reset it, and the reset used to overtake the
     * close frame (1006).
     */
    @Test
    void oversizedFrameIsClosedWith1009() throws Exception {
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            List<RawWsClient> oversized = new ArrayList<>();
            for (int size : new int[] { 70_000, 200_000 }) {
                RawWsClient attacker = RawWsClient.connect(base, "/cable?user=big", V1, 65536);
                attacker.sendFragmentedText("{\"command\":\"message\",\"identifier\":\"" + "b".repeat(size) + "\"}",
                        50_000);
                oversized.add(attacker);
            }
            for (int size : new int[] { 100_000, 1_000_000 }) {
                RawWsClient attacker = RawWsClient.connect(base, "/cable?user=big", V1, 65536);
                try {
                    attacker.sendText("{\"command\":\"message\",\"identifier\":\"" + "b".repeat(size) + "\"}");
                } catch (IOException refusedMeanwhile) {
                    // closed while sending
                }
                oversized.add(attacker);
            }
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            long used = AbuseHarness.usedMemory();
            for (RawWsClient attacker : oversized) {
                RawWsClient.Closed closed = attacker.readUntilClosed(CLOSE_WAIT);
                assertThat(closed.code()).as(closed.reason()).isEqualTo(1009);
                attacker.close();
            }
            harness.assertHealthyReceivedEverything();
            AbuseHarness.report("commands of 70 KB to 1 MB (4)", baseline, attack, used, 4 * PER_ATTACKER);
        } finally {
            harness.close();
        }
    }

    /**
     * Item 9: an action that throws on a client's input, and junk commands, are logged at most once per second per
     * cause, one line each without a stack trace, with the client's CR/LF escaped; and one cause's flood does not
     * hide another cause's line.
     */
    @Test
    void failuresAreLoggedSafelyAndPerCause() throws Exception {
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            int from = log.records.size();
            long started = System.nanoTime();
            String identifier = new JsonObject().put("channel", "ChatChannel").put("room", "loud").encode();
            RawWsClient attacker = RawWsClient.connect(base, "/cable?user=loud", V1, 65536);
            attacker.sendText(subscribe(identifier, null));
            attacker.readTexts(2, Duration.ofSeconds(60)); // welcome, confirmation
            String forged = "x\r\n2026-01-01 00:00:00,000 ERROR [io.quarkus] forged line";
            for (int i = 0; i < 150; i++) {
                attacker.sendText(new JsonObject().put("command", "message").put("identifier", identifier)
                        .put("data", new JsonObject().put("action", "fail").put("text", forged).encode()).encode());
            }
            // Another cause of the same kind (bad input) while the action failures flood.
            attacker.sendText(subscribe(new JsonObject().put("channel", "NoSuchChannel\nforged").encode(), null));
            List<Double> attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            long used = AbuseHarness.usedMemory();
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + 1;
            attacker.close();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> engine.stats()
                    .failures(Failure.LISTENER) > 0);
            List<LogRecord> records = new ArrayList<>(log.records.subList(from, log.records.size()));
            List<LogRecord> actions = records.stream()
                    .filter(r -> AbuseHarness.CableLog.text(r).contains("ChatChannel#fail failed")).toList();
            assertThat(actions).isNotEmpty();
            assertThat(actions.size()).isLessThanOrEqualTo((int) seconds + 1);
            assertThat(records).allSatisfy(r -> {
                assertThat(AbuseHarness.CableLog.text(r)).doesNotContain("\r").doesNotContain("\n");
                assertThat(r.getThrown()).isNull();
            });
            assertThat(records).anySatisfy(r -> assertThat(AbuseHarness.CableLog.text(r))
                    .contains("subscribed to no channel NoSuchChannel\\u000aforged"));
            harness.assertHealthyReceivedEverything();
            AbuseHarness.report("an action failing 150 times, forged log lines (1)", baseline, attack, used,
                    PER_ATTACKER);
        } finally {
            harness.close();
        }
    }

    /** 100 broadcasts of 64 KB to {@code channel}. */
    private List<CompletableFuture<Void>> flood(String channel) {
        List<CompletableFuture<Void>> floods = new ArrayList<>();
        String big = "F".repeat(64 * 1024);
        for (int i = 0; i < 100; i++) {
            floods.add(cable.broadcast(channel, i + ":" + big).toCompletableFuture());
        }
        return floods;
    }

    private void awaitSubscribers(String channel, int count) {
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
            Integer subscribers = engine.subscribersByChannel().get(channel);
            return subscribers != null && subscribers >= count;
        });
    }

    /** An identifier of about {@code size} characters for {@code room}, its own for each attacker. */
    private static String identifier(String room, int attacker, int size) {
        JsonObject params = new JsonObject().put("channel", "ChatChannel").put("room", room).put("who", attacker);
        return params.put("pad", "i".repeat(Math.max(0, size - params.encode().length() - 10))).encode();
    }

    private static String subscribe(String identifier, JsonObject history) {
        JsonObject command = new JsonObject().put("command", "subscribe").put("identifier", identifier);
        if (history != null) {
            command.put("history", history);
        }
        return command.encode();
    }
}
