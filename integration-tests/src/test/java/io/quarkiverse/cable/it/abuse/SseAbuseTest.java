package io.quarkiverse.cable.it.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException.HistoryUnavailable.Reason;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.RawHttpStream;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.sse.CableSseConfig;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * SSE under attack, beside a healthy client in the same run (the abuse suite's bound: the healthy p99 at most three
 * times its baseline of the same run, floored at 100 ms). One client opening hundreds of streams is held to
 * {@code sse.max-streams-per-client} (the rest answered 429); many clients storming with {@code Last-Event-ID: 0} are
 * held to the node's replay budget (the excess refused as busy); stalled readers are disconnected within the stall
 * timeout while holding no more heap than their byte bound; and an idle SSE stream costs at most twice an idle Action
 * Cable connection. Each attacker of a many-clients case is a client of its own (its own loopback source address).
 */
@QuarkusTest
@TestProfile(SseAbuseTest.Bounds.class)
@DatabaseIndependent
public class SseAbuseTest {

    static final long MAX_PENDING = 1024 * 1024;
    // Long enough that a reading client on a heavily loaded machine always completes a write within it.
    static final Duration STALL = Duration.ofSeconds(5);

    public static class Bounds implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.sse.max-pending-bytes", Long.toString(MAX_PENDING),
                    "quarkus.cable.websocket.stall-timeout", STALL.toMillis() + "ms");
        }
    }

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    CableSseConfig sse;

    @TestHTTPResource("/")
    URI base;

    final HttpClient http = HttpClient.newHttpClient();

    /** A reading EventSource-like client on one channel: each event's data and the time it arrived. */
    final class HealthyClient implements AutoCloseable {
        final List<String> data = new CopyOnWriteArrayList<>();
        final List<Long> latencyNanos = new CopyOnWriteArrayList<>();
        final AtomicBoolean ended = new AtomicBoolean();
        final CompletableFuture<HttpResponse<Stream<String>>> response;
        /** Pings broadcast to it so far ({@link #pingP99}). */
        int pingsSent;

        HealthyClient(String channel) throws Exception {
            response = http.sendAsync(HttpRequest.newBuilder(base.resolve("/events/" + channel))
                    .header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofLines());
            Thread.ofVirtual().start(() -> {
                try (Stream<String> lines = response.get(60, TimeUnit.SECONDS).body()) {
                    lines.forEach(line -> {
                        if (line.startsWith("data:")) {
                            String value = line.substring(5).trim();
                            if (value.startsWith("t")) {
                                latencyNanos.add(System.nanoTime() - Long.parseLong(value.substring(1,
                                        value.indexOf('|') < 0 ? value.length() : value.indexOf('|'))));
                            }
                            data.add(value);
                        }
                    });
                } catch (Exception e) {
                    // ended below
                } finally {
                    ended.set(true);
                }
            });
        }

        void awaitEvents(int count) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (data.size() < count && System.nanoTime() < deadline && !ended.get()) {
                LockSupportPark.millis(5);
            }
            assertThat(data.size()).as("events received (stream ended: %s)", ended.get())
                    .isGreaterThanOrEqualTo(count);
        }

        @Override
        public void close() {
            response.thenAccept(r -> r.body().close());
        }
    }

    /** Parks the test thread between polls of a condition (a bounded wait, not a synchronisation by sleep). */
    static final class LockSupportPark {
        static void millis(long millis) {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
        }
    }

    /**
     * {@code count} pings, paced, each carrying its send time and its number; returns the healthy client's p99 over
     * them.
     */
    private long pingP99(HealthyClient client, String channel, int count) throws Exception {
        int before = client.latencyNanos.size();
        for (int i = 0; i < count; i++) {
            cable.broadcast(channel, "t" + System.nanoTime() + "|p" + client.pingsSent++).toCompletableFuture()
                    .get(60, TimeUnit.SECONDS);
            LockSupportPark.millis(10);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (client.latencyNanos.size() < before + count && System.nanoTime() < deadline) {
            LockSupportPark.millis(5);
        }
        List<Long> run = new ArrayList<>(client.latencyNanos.subList(before, client.latencyNanos.size()));
        assertThat(run).as("pings received").hasSize(count);
        Collections.sort(run);
        return run.get((int) Math.ceil(run.size() * 0.99) - 1);
    }

    /** The healthy client received every ping of the case exactly once, in order, and is still streaming. */
    private void assertEveryPingInOrder(HealthyClient client) {
        List<Integer> pings = client.data.stream().filter(value -> value.startsWith("t") && value.contains("|p"))
                .map(value -> Integer.parseInt(value.substring(value.indexOf("|p") + 2))).toList();
        assertThat(pings).as("pings the healthy client received")
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, client.pingsSent).boxed().toList());
        assertThat(client.ended).as("the healthy client is never closed").isFalse();
    }

    /**
     * Each case counts subscribers from where it starts, so the one before must have left none behind: the server
     * drops a closed stream's subscription when it sees the close, which a loaded machine may see after the next case
     * has counted (a baseline that later falls makes its waits unreachable). That the server drops them at all is
     * checked here too. The cable's own channels ({@code cable:*}, subscribed once, when first needed) stay.
     */
    @AfterEach
    void awaitTheCasesSubscriptionsGone() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!casesSubscriptions().isEmpty() && System.nanoTime() < deadline) {
            LockSupportPark.millis(10);
        }
        assertThat(casesSubscriptions()).as("subscriptions left behind by closed streams").isEmpty();
    }

    private Map<String, Integer> casesSubscriptions() {
        Map<String, Integer> subscriptions = new java.util.HashMap<>(engine.subscribersByChannel());
        subscriptions.keySet().removeIf(channel -> channel.startsWith("cable:"));
        return subscriptions;
    }

    private void waitForSubscribers(int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (engine.subscriberCount() < count && System.nanoTime() < deadline) {
            LockSupportPark.millis(10);
        }
        assertThat(engine.subscriberCount()).isGreaterThanOrEqualTo(count);
    }

    private void waitForSubscribersAtMost(int count, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (engine.subscriberCount() > count && System.nanoTime() < deadline) {
            LockSupportPark.millis(10);
        }
    }

    @Test
    void aStormOfLastEventIdZeroReplaysDoesNotSlowAHealthyLiveClient() throws Exception {
        String stored = Channels.unique("sse-storm");
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            commits.add(cable.broadcast(stored, "stored message " + i + " " + "x".repeat(200)).toCompletableFuture());
        }
        CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        String live = Channels.unique("sse-healthy");
        int subscribers = engine.subscriberCount();
        long servedBefore = engine.stats().replaysServed();
        long busyBefore = engine.stats().replaysRejected(Reason.BUSY);
        try (HealthyClient healthy = new HealthyClient(live)) {
            waitForSubscribers(subscribers + 1);
            healthy.awaitEvents(1); // cable-subscribed
            long baseline = pingP99(healthy, live, 50);

            int attackers = 100;
            // The control: as many streams from as many other clients, without Last-Event-ID (no replay at all).
            long controlP99;
            List<RawHttpStream> control = new ArrayList<>();
            try {
                for (int i = 0; i < attackers; i++) {
                    control.add(RawHttpStream.sse(base, "/events/" + stored, null, 0, RawHttpStream.loopback(500 + i),
                            ""));
                }
                // Measured from the requests on, as the storm is: their accepting, routing and subscribing included.
                controlP99 = pingP99(healthy, live, 50);
                waitForSubscribers(subscribers + 1 + attackers);
            } finally {
                control.forEach(RawHttpStream::close);
            }
            waitForSubscribersAtMost(subscribers + 1, Duration.ofSeconds(60));
            long stormReadsBefore = engine.stats().historyReads();
            List<RawHttpStream> storm = new ArrayList<>();
            try {
                for (int i = 0; i < attackers; i++) {
                    // Each a client of its own: this case is the replays' cost, not one client's streams.
                    storm.add(RawHttpStream.sse(base, "/events/" + stored, "0", 0, RawHttpStream.loopback(i), ""));
                }
                long underAttack = pingP99(healthy, live, 50);
                // Every attacker's replay was served meanwhile (or refused as busy): the storm did happen.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (engine.stats().replaysServed() - servedBefore
                        + engine.stats().replaysRejected(Reason.BUSY) - busyBefore < attackers
                        && System.nanoTime() < deadline) {
                    LockSupportPark.millis(10);
                }
                assertThat(engine.stats().replaysServed() - servedBefore
                        + engine.stats().replaysRejected(Reason.BUSY) - busyBefore).isGreaterThanOrEqualTo(attackers);
                System.out.printf("SSE replay storm: healthy p99 baseline %.1f ms, control (%d streams of as many"
                        + " clients, no replay) %.1f ms, under %d Last-Event-ID: 0 replays %.1f ms; %d history reads%n",
                        baseline / 1e6, attackers, controlP99 / 1e6, attackers, underAttack / 1e6,
                        engine.stats().historyReads() - stormReadsBefore);
                // Three times the baseline, floored as MANY_CLIENTS_REPLAY_FLOOR_MILLIS says. Before the replay
                // bounds the same storm pushed a healthy p99 to 23.5 s and closed the client as too slow.
                double baselineMillis = baseline / 1e6;
                assertThat(underAttack / 1e6).as("healthy p99 under the storm, baseline %.1f ms (floor %.0f ms),"
                        + " control %.1f ms", baselineMillis, MANY_CLIENTS_REPLAY_FLOOR_MILLIS, controlP99 / 1e6)
                        .isLessThanOrEqualTo(3 * Math.max(baselineMillis, MANY_CLIENTS_REPLAY_FLOOR_MILLIS));
                assertEveryPingInOrder(healthy);
                assertThat(engine.stats().replaysRejected(Reason.BUSY) - busyBefore)
                        .as("no replay refused: the queue takes a storm of 100").isZero();
            } finally {
                storm.forEach(RawHttpStream::close);
            }
        }
    }

    /** The default of quarkus.cable.history.max-replay-bytes-in-flight, which this suite leaves as it is. */
    static final long REPLAY_BUDGET = 64L * 1024 * 1024;
    /** Requests of each storm: issue 45's item 1. */
    static final int STORM = 300;
    /** The storm's distinct clients in the many-clients case: 15 streams each, within the per-client bound (16). */
    static final int STORM_CLIENTS = 20;
    /**
     * The baseline floor of the many-clients replay storms: the old one second, not the suite's 100 ms. Their healthy
     * p99 is what the requests and the replays admitted within the node's budget cost, which the budget bounds in bytes
     * and count but does not pace: on the shared 2-core machine (2026-12-07) 300 whole replays from 20 clients
     * measured 175-493 ms in four runs, their control (the same requests without a replay, measured alike) 37-345 ms;
     * 100 replays of 200 messages from 100 clients 88-720 ms in six runs, their control 89-117 ms. What these cases
     * hold the server to is the budget, the refusals, the memory and every event in order; the p99 bound here only
     * catches a return of the unbounded storm (3.7 s, 23.5 s). One client's storm is held to the 100 ms floor
     * ({@link #oneClientsStormOfStreamsIsHeldToItsBound}).
     */
    static final double MANY_CLIENTS_REPLAY_FLOOR_MILLIS = 1000;

    /** A channel of 1,000 stored messages of about 1.9 KB: each whole replay is about 1.9 MB. */
    private String storedForWholeReplays(String prefix) throws Exception {
        String stored = Channels.unique(prefix);
        String filler = "z".repeat(1900);
        for (int from = 0; from < 1000; from += 200) {
            List<CompletableFuture<Void>> commits = new ArrayList<>();
            for (int i = from; i < from + 200; i++) {
                commits.add(cable.broadcast(stored, "stored " + i + " " + filler).toCompletableFuture());
            }
            CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        }
        return stored;
    }

    /** {@link #STORM} readers of {@code stored}, request {@code i} from {@code client.apply(i)}. */
    private List<StormReader> storm(String stored, String lastEventId,
            java.util.function.IntFunction<java.net.InetAddress> client) throws Exception {
        List<StormReader> storm = new ArrayList<>();
        for (int i = 0; i < STORM; i++) {
            storm.add(new StormReader(RawHttpStream.sse(base, "/events/" + stored, lastEventId, 0, client.apply(i),
                    "")));
        }
        return storm;
    }

    private static void awaitAnswered(List<StormReader> storm) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (storm.stream().anyMatch(reader -> !reader.answered()) && System.nanoTime() < deadline) {
            LockSupportPark.millis(20);
        }
    }

    /**
     * Issue 45: one client opening {@value #STORM} streams with {@code Last-Event-ID: 0} (1,000 stored messages) is one
     * client. Before {@code sse.max-streams-per-client}, every one was admitted: with the replay budget the replays
     * were bounded, yet the streams themselves (300 of one client, replays or not) took the healthy client's p99 from
     * about 15 ms to 327-645 ms. Now the client's first {@code max-streams-per-client} streams are served and the rest
     * answered 429 with Retry-After before anything is sent, counted as
     * {@code cable.limits.refusals{reason="streams_per_client"}}; the healthy client (another client) receives every
     * event in order.
     * <p>
     * Its p99 is held to three times a control's in the same run, floored at 100 ms: the same 300 requests of one
     * (other) client, the bound's streams with their replays and the rest sent to the application's liveness endpoint
     * instead. 284 requests at once cost the server their accepting and routing whatever answers them (on the shared
     * 2-core machine, 2026-12-07, a freshly started JVM: 250 ms to a path nobody serves, 380 ms to the liveness
     * endpoint, 490-540 ms refused by the bound, 690-875 ms before the refusal lost its stack trace; 240 ms for the
     * refusals once warm). What the cable can bound is what it adds to any request: the streams it admits and what
     * refusing costs.
     */
    @Test
    void oneClientsStormOfStreamsIsHeldToItsBound() throws Exception {
        String stored = storedForWholeReplays("sse-one-client");
        String live = Channels.unique("sse-one-client-healthy");
        int bound = sse.maxStreamsPerClient();
        int subscribers = engine.subscriberCount();
        long refusedBefore = engine.stats().refusals(CableStats.Refusal.STREAMS_PER_CLIENT);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        try (HealthyClient healthy = new HealthyClient(live)) {
            waitForSubscribers(subscribers + 1);
            healthy.awaitEvents(1); // cable-subscribed
            long baseline = pingP99(healthy, live, 100);
            long controlP99;
            List<StormReader> control = new ArrayList<>();
            try {
                java.net.InetAddress other = RawHttpStream.loopback(3001);
                for (int i = 0; i < STORM; i++) {
                    control.add(new StormReader(i < bound
                            ? RawHttpStream.sse(base, "/events/" + stored, "0", 0, other, "")
                            : RawHttpStream.sse(base, "/q/health/live", null, 0, other, "")));
                }
                // Measured from the requests on, as the storm is.
                controlP99 = pingP99(healthy, live, 100);
                awaitAnswered(control.subList(0, bound));
                assertThat(control).allSatisfy(reader -> assertThat(reader.status).isEqualTo(200));
            } finally {
                control.forEach(StormReader::close);
            }
            waitForSubscribersAtMost(subscribers + 1, Duration.ofSeconds(60));
            long heapBefore = usedHeapAfterGc(memory);
            java.net.InetAddress attacker = RawHttpStream.loopback(3000);
            List<StormReader> storm = new ArrayList<>();
            try {
                storm = storm(stored, "0", i -> attacker);
                long underAttack = pingP99(healthy, live, 100);
                long heapGrowth = usedHeapAfterGc(memory) - heapBefore;
                awaitAnswered(storm);
                long admitted = storm.stream().filter(reader -> reader.status == 200).count();
                long refused = storm.stream().filter(reader -> reader.status == 429).count();
                long retryAfter = storm.stream().filter(reader -> reader.status == 429 && reader.retryAfter).count();
                long unanswered = storm.stream().filter(reader -> !reader.answered()).count();
                long counted = engine.stats().refusals(CableStats.Refusal.STREAMS_PER_CLIENT) - refusedBefore;
                System.out.printf(java.util.Locale.ROOT, "SSE one client's storm: healthy p99 baseline %.1f ms,"
                        + " control (%d streams and %d liveness requests of one client) %.1f ms, under %d requests of"
                        + " one client %.1f ms; %d admitted (bound %d), %d refused 429 (%d with Retry-After, %d"
                        + " counted), %d unanswered; heap +%.1f MiB after GC%n", baseline / 1e6, bound,
                        STORM - bound, controlP99 / 1e6, STORM, underAttack / 1e6, admitted, bound, refused,
                        retryAfter, counted, unanswered, heapGrowth / 1048576.0);
                assertThat(underAttack / 1e6).as("healthy p99 under one client's storm, baseline %.1f ms, control"
                        + " %.1f ms (floor %.0f ms)", baseline / 1e6, controlP99 / 1e6, AbuseHarness.P99_FLOOR_MILLIS)
                        .isLessThanOrEqualTo(3 * Math.max(controlP99 / 1e6, AbuseHarness.P99_FLOOR_MILLIS));
                assertThat(admitted).as("streams admitted for one client").isEqualTo(bound);
                assertThat(refused).as("the rest refused with 429").isEqualTo(STORM - bound);
                assertThat(retryAfter).as("refusals with Retry-After").isEqualTo(refused);
                assertThat(counted).as("cable.limits.refusals{reason=streams_per_client}").isEqualTo(refused);
                assertThat(unanswered).as("admitted streams neither replayed nor refused busy").isZero();
                // The admitted streams' replays at most (each message as stored bytes and as the event's text),
                // and each stream's state; plus 10%.
                long heapBound = (long) ((2 * Math.min(REPLAY_BUDGET, bound * 2_000_000L) + bound * 64 * 1024L) * 1.1);
                assertThat(heapGrowth).as("heap growth under one client's storm").isLessThanOrEqualTo(heapBound);
                assertEveryPingInOrder(healthy);
            } finally {
                storm.forEach(StormReader::close);
            }
        }
    }

    /**
     * Issue 45, item 1, from many clients at once: {@value #STORM} concurrent requests with {@code Last-Event-ID: 0}
     * (1,000 stored messages of about 1.9 KB) from {@value #STORM_CLIENTS} clients, each within its per-client bound,
     * each reading all it is sent. Every one used to be served the whole replay (552 MiB at once, with no bound for the
     * node) and the healthy client's p99 went from about 20 ms to 3.7 s. Now the node's replay budget admits what fits
     * in 64 MiB of replays in flight and refuses the rest with the {@code cable-history-lost} event, data {@code busy}
     * (before their read once the budget is full, their streams live): the bytes in flight never pass the budget, the
     * heap holds no more than the budget's replays, every replay's share comes back, and the healthy client receives
     * every event in order. A control in the same run measures the same number of streams from as many clients without
     * {@code Last-Event-ID} (no replay at all): what 300 streams alone cost this machine.
     */
    @Test
    void aStormOfWholeReplaysFromManyClientsIsBoundedByTheNodesReplayBudget() throws Exception {
        String stored = storedForWholeReplays("sse-budget");
        String live = Channels.unique("sse-budget-healthy");
        int subscribers = engine.subscriberCount();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        try (HealthyClient healthy = new HealthyClient(live)) {
            waitForSubscribers(subscribers + 1);
            healthy.awaitEvents(1); // cable-subscribed
            long baseline = pingP99(healthy, live, 100);

            // The control: 300 streams without a replay, from other clients than the storm's (a closed stream gives
            // its place back when the server sees the close).
            long controlP99;
            List<StormReader> control = storm(stored, null, i -> RawHttpStream.loopback(1000 + i % STORM_CLIENTS));
            try {
                // Measured from the requests on, as the storm is: their accepting, routing and subscribing included.
                controlP99 = pingP99(healthy, live, 100);
                waitForSubscribers(subscribers + 1 + STORM);
                assertThat(control).allSatisfy(reader -> assertThat(reader.status).isEqualTo(200));
            } finally {
                control.forEach(StormReader::close);
            }
            waitForSubscribersAtMost(subscribers + 1, Duration.ofSeconds(60));

            long overBefore = engine.stats().replaysOverBudget();
            long servedBefore = engine.stats().replaysServed();
            long busyBefore = engine.stats().replaysRejected(Reason.BUSY);
            long readsBefore = engine.stats().historyReads();
            long coalescedBefore = engine.stats().replaysCoalesced();
            long heapBefore = usedHeapAfterGc(memory);
            List<StormReader> storm = new ArrayList<>();
            AtomicBoolean sampling = new AtomicBoolean(true);
            long[] mostInFlight = new long[1];
            Thread sampler = Thread.ofPlatform().daemon().start(() -> {
                while (sampling.get()) {
                    mostInFlight[0] = Math.max(mostInFlight[0], engine.replayBytesInFlight());
                    LockSupportPark.millis(2);
                }
            });
            try {
                storm = storm(stored, "0", i -> RawHttpStream.loopback(2000 + i % STORM_CLIENTS));
                long underAttack = pingP99(healthy, live, 100);
                // Heap after GC with the storm still connected, some of it still reading its replay.
                long heapGrowth = usedHeapAfterGc(memory) - heapBefore;

                // Every attacker was answered: its status, and for a 200 its whole replay or the busy event.
                awaitAnswered(storm);
                sampling.set(false);
                sampler.join(10_000);
                long notOk = storm.stream().filter(reader -> reader.status != 200).count();
                long refusedBusy = storm.stream().filter(reader -> reader.busy).count();
                long replayed = storm.stream().filter(reader -> reader.replayed).count();
                long unanswered = storm.stream().filter(reader -> !reader.answered()).count();
                long bytesRead = storm.stream().mapToLong(reader -> reader.bytes).sum();
                System.out.printf(java.util.Locale.ROOT, "SSE replay budget storm: healthy p99 baseline %.1f ms,"
                        + " control (%d streams of %d clients, no replay) %.1f ms, under %d whole replays of %d"
                        + " clients %.1f ms; %d replayed, %d refused busy, %d not answered 200, %d unanswered; %.1f"
                        + " MiB read by the storm; most replay bytes in flight %.1f MiB; heap +%.1f MiB after GC; %d"
                        + " history reads, %d coalesced%n", baseline / 1e6, STORM, STORM_CLIENTS, controlP99 / 1e6,
                        STORM, STORM_CLIENTS, underAttack / 1e6, replayed, refusedBusy, notOk, unanswered,
                        bytesRead / 1048576.0, mostInFlight[0] / 1048576.0, heapGrowth / 1048576.0,
                        engine.stats().historyReads() - readsBefore,
                        engine.stats().replaysCoalesced() - coalescedBefore);

                assertThat(unanswered).as("attackers neither replayed nor refused").isZero();
                assertThat(notOk).as("streams answered otherwise than 200: a refusal is an event").isZero();
                assertThat(replayed + refusedBusy).isEqualTo(STORM);
                assertThat(refusedBusy).as("requests beyond the node's replay budget refused as busy").isPositive();
                assertThat(engine.stats().replaysOverBudget() - overBefore).as("cable.history.replays.over.budget")
                        .isEqualTo(refusedBusy);
                assertThat(engine.stats().replaysRejected(Reason.BUSY) - busyBefore)
                        .isGreaterThanOrEqualTo(refusedBusy);
                assertThat(engine.stats().replaysServed() - servedBefore).isGreaterThanOrEqualTo(replayed);
                assertThat(mostInFlight[0]).as("replay bytes in flight on the node").isLessThanOrEqualTo(REPLAY_BUDGET);
                // What the storm may hold: the budget's replays (each message once as stored bytes, once as the text
                // its event is built from) and, per stream, its state and a few events; plus 10%.
                long heapBound = (long) ((2 * REPLAY_BUDGET + STORM * 64 * 1024L) * 1.1);
                assertThat(heapGrowth).as("heap growth under the storm").isLessThanOrEqualTo(heapBound);
                assertEveryPingInOrder(healthy);
                assertThat(underAttack / 1e6).as("healthy p99 under the storm of many clients, baseline %.1f ms (floor"
                        + " %.0f ms), control %.1f ms", baseline / 1e6, MANY_CLIENTS_REPLAY_FLOOR_MILLIS, controlP99 / 1e6)
                        .isLessThanOrEqualTo(3 * Math.max(baseline / 1e6, MANY_CLIENTS_REPLAY_FLOOR_MILLIS));
            } finally {
                sampling.set(false);
                storm.forEach(StormReader::close);
            }
            // Every replay's share came back once the storm was gone.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while ((engine.replayBytesInFlight() > 0 || engine.replaysInFlight() > 0) && System.nanoTime() < deadline) {
                LockSupportPark.millis(10);
            }
            assertThat(engine.replayBytesInFlight()).as("replay bytes in flight after the storm").isZero();
            assertThat(engine.replaysInFlight()).as("replays in flight after the storm").isZero();
        }
    }

    /**
     * One attacker of the replay storm, reading everything it is sent on a virtual thread: its status (and for a 429
     * whether it said when to retry), whether it got the busy event, and whether it got its whole replay (the last
     * stored message's event).
     */
    static final class StormReader {
        final RawHttpStream stream;
        volatile int status;
        volatile boolean busy;
        volatile boolean replayed;
        volatile boolean retryAfter;
        volatile boolean ended;
        volatile long bytes;

        StormReader(RawHttpStream stream) {
            this.stream = stream;
            Thread.ofVirtual().start(this::read);
        }

        /** Refused (429), or admitted and then replayed or refused busy. */
        boolean answered() {
            return status == 429 || busy || replayed;
        }

        private void read() {
            byte[] buffer = new byte[64 * 1024];
            // The tail of what was read, so a marker split across two reads is still found.
            StringBuilder window = new StringBuilder();
            try {
                int n;
                while ((n = stream.in.read(buffer)) >= 0) {
                    bytes += n;
                    window.append(new String(buffer, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1));
                    if (status == 0 && window.indexOf("\r\n\r\n") >= 0) {
                        String head = window.substring(0, window.indexOf("\r\n\r\n"));
                        retryAfter = head.toLowerCase(java.util.Locale.ROOT).contains("\r\nretry-after: ");
                        status = Integer.parseInt(head.substring(9, 12));
                    }
                    if (window.indexOf("cable-history-lost") >= 0 && window.indexOf("busy") >= 0) {
                        busy = true;
                    }
                    if (window.indexOf("stored 999 ") >= 0) {
                        replayed = true;
                    }
                    if (window.length() > 4096) {
                        window.delete(0, window.length() - 4096);
                    }
                }
            } catch (java.io.IOException e) {
                // closed by the test or reset
            } finally {
                ended = true;
            }
        }

        void close() {
            stream.close();
        }
    }

    @Test
    void stalledReadersAreDisconnectedWithinTheStallTimeoutHoldingNoMoreThanTheirBound() throws Exception {
        String channel = Channels.unique("sse-stalled");
        int subscribers = engine.subscriberCount();
        long slowBefore = engine.stats().sseSlowConsumers();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        try (HealthyClient healthy = new HealthyClient(channel)) {
            waitForSubscribers(subscribers + 1);
            healthy.awaitEvents(1);
            int stalled = 30;
            List<RawHttpStream> readers = new ArrayList<>();
            try {
                for (int i = 0; i < stalled; i++) {
                    readers.add(RawHttpStream.sse(base, "/events/" + channel, null, 4096, RawHttpStream.loopback(i),
                            ""));
                }
                waitForSubscribers(subscribers + 1 + stalled);
                long heapBefore = usedHeapAfterGc(memory);
                // 8 MB per stream: more than the socket buffers take, so each stalled stream has events waiting.
                int broadcasts = 80;
                String filler = "y".repeat(100 * 1024);
                for (int i = 0; i < broadcasts; i++) {
                    cable.broadcast(channel, "t" + System.nanoTime() + "|" + filler).toCompletableFuture()
                            .get(60, TimeUnit.SECONDS);
                    // Paced by the reading client, which must keep up: it is healthy by construction.
                    healthy.awaitEvents(2 + i);
                }
                long lastBroadcast = System.nanoTime();
                healthy.awaitEvents(1 + broadcasts);
                long grown = usedHeapAfterGc(memory) - heapBefore;
                long broadcastBytes = (long) broadcasts * filler.length();
                // The bound: every stalled stream's pending bytes, plus the broadcasts themselves held once (payload,
                // decoded text, the shared event), +10%.
                long bound = (long) ((stalled * MAX_PENDING + 3 * broadcastBytes) * 1.1);
                System.out.printf("SSE stalled readers: heap grew %.1f MiB with %d stalled streams (bound %.1f MiB)%n",
                        grown / 1048576.0, stalled, bound / 1048576.0);
                assertThat(grown).as("heap growth with %d stalled streams", stalled).isLessThanOrEqualTo(bound);

                waitForSubscribersAtMost(subscribers + 1, STALL.plusSeconds(40));
                long closedAfter = System.nanoTime() - lastBroadcast;
                assertThat(engine.subscriberCount()).as("stalled streams unsubscribed")
                        .isEqualTo(subscribers + 1);
                assertThat(engine.stats().sseSlowConsumers() - slowBefore).isEqualTo(stalled);
                // Their events started waiting during the broadcasts: closed within the stall timeout of the last
                // one, plus the watch's period and a margin for a loaded machine, whose full GCs above (for the heap
                // figure) alone took several seconds (13.9 s in all seen at a load average of 20). Before the stall
                // timeout covered SSE, such streams were still subscribed 45 s later.
                assertThat(closedAfter).as("nanoseconds from the last broadcast to the last close")
                        .isLessThanOrEqualTo(STALL.plusSeconds(25).toNanos());
                System.out.printf("SSE stalled readers: all %d closed %.1f s after the last broadcast%n", stalled,
                        closedAfter / 1e9);
                for (RawHttpStream reader : readers) {
                    assertThat(reader.drainUntilClosed(30_000)).as("the server closed a stalled reader").isTrue();
                }
                assertThat(healthy.ended).as("the reading client is never closed").isFalse();
            } finally {
                readers.forEach(RawHttpStream::close);
            }
        }
    }

    @Test
    void anIdleSseStreamCostsAtMostTwiceAnIdleActionCableConnection() throws Exception {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        int count = 200;
        int subscribers = engine.subscriberCount();
        String channel = Channels.unique("sse-idle");
        long before = usedHeapAfterGc(memory);
        List<RawHttpStream> sse = new ArrayList<>();
        List<RawHttpStream> cables = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                sse.add(RawHttpStream.sse(base, "/events/" + channel, null, 0, RawHttpStream.loopback(i), ""));
            }
            waitForSubscribers(subscribers + count);
            long sseBytes = usedHeapAfterGc(memory) - before;
            long middle = usedHeapAfterGc(memory);
            String identifier = "{\"channel\":\"ChatChannel\",\"room\":\"" + channel + "\"}";
            for (int i = 0; i < count; i++) {
                cables.add(RawHttpStream.actionCable(base, identifier));
            }
            waitForSubscribers(subscribers + 2 * count);
            long cableBytes = usedHeapAfterGc(memory) - middle;
            double perSse = sseBytes / (double) count / 1024;
            double perCable = cableBytes / (double) count / 1024;
            System.out.printf("Idle heap per connection (%d of each, used heap after GC): SSE stream %.1f KiB, "
                    + "Action Cable connection %.1f KiB%n", count, perSse, perCable);
            assertThat(perSse).as("KiB per idle SSE stream against %.1f KiB per Action Cable connection", perCable)
                    .isLessThanOrEqualTo(2 * Math.max(perCable, 1.0));
        } finally {
            sse.forEach(RawHttpStream::close);
            cables.forEach(RawHttpStream::close);
        }
    }

    private static long usedHeapAfterGc(MemoryMXBean memory) {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            least = Math.min(least, memory.getHeapMemoryUsage().getUsed());
        }
        return least;
    }
}
