package io.quarkiverse.cable.it.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Issue 45, item 3: one channel flooding the writer. An application endpoint that enqueues 20,000 broadcasts per call
 * on one channel, called again and again, gets its channel's share of the queue and the rest refused
 * ({@code QueueFull}); a healthy client on another channel must keep its latency, not only its admission (before,
 * its p99 went from 43 ms to 400 ms: its broadcasts queued behind the flood's share, batch after batch).
 * <p>
 * The flood runs for the whole attack phase: bursts of 20,000 broadcasts of 500 bytes, one every 320 ms (the issue's
 * 25 calls in 8 s), on a channel nobody streams. Memory: what the flood may hold is the writer queue (the queue's
 * capacity in broadcasts) and, on embedded H2, the rows it stored, which live in this heap; both are counted in the
 * bound from the number of broadcasts the writer accepted.
 */
@QuarkusTest
@DatabaseIndependent
@TestProfile(AbuseTest.Limits.class)
public class WriterFloodAbuseTest {

    private static final int PER_CALL = 20_000;
    private static final long CALL_EVERY_MILLIS = 320;
    private static final int PAYLOAD = 500;
    /**
     * What one stored or queued broadcast of the flood may hold, beyond its payload: the message object, its future,
     * the queue's slot, and on H2 the row with its indexes (about 200 bytes of columns and keys). Generous, so the bound
     * catches an unbounded queue (the issue saw +121 MiB), not H2's page layout.
     */
    private static final long OVERHEAD_PER_BROADCAST = 1024;
    /** The writer queue's default capacity (quarkus.cable.writer.queue-capacity). */
    private static final int QUEUE_CAPACITY = 10_000;

    @TestHTTPResource("/")
    URI base;

    @Inject
    Cable cable;

    @Test
    void aFloodingChannelDoesNotDelayOtherChannels() throws Exception {
        String noisy = "noisy-" + System.nanoTime();
        AbuseHarness harness = AbuseHarness.start(cable, base);
        try {
            AbuseHarness.Baseline baseline = harness.baseline();
            Flood flood = new Flood("chat:" + noisy);
            Thread flooder = Thread.ofPlatform().name("flooder").start(flood);
            List<Double> attack;
            try {
                flood.firstBurst.get(60, TimeUnit.SECONDS);
                attack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            } finally {
                flood.running.set(false);
                flooder.join(TimeUnit.SECONDS.toMillis(60));
            }
            assertThat(flooder.isAlive()).as("the flooder stopped").isFalse();
            // Everything the writer accepted is stored, and refusals are the channel's share, nothing else.
            CompletableFuture.allOf(flood.accepted.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            assertThat(flood.failures).as("refusals other than QueueFull").hasValue(0);
            assertThat(flood.refused.get()).as("the flood's excess is refused").isPositive();
            assertThat(flood.withStackTrace).as("refusals carrying a stack trace").hasValue(0);
            long used = AbuseHarness.usedMemory();
            harness.assertHealthyReceivedEverything();
            long bound = (QUEUE_CAPACITY + flood.accepted.size()) * (PAYLOAD + OVERHEAD_PER_BROADCAST);
            System.out.printf("WRITER-FLOOD bursts %d, accepted %d, refused %d%n", flood.bursts.get(),
                    flood.accepted.size(), flood.refused.get());
            AbuseHarness.report(String.format(java.util.Locale.ROOT,
                    "one channel flooding the writer: %d bursts of 20,000 broadcasts, %d accepted, %d refused (1)",
                    flood.bursts.get(), flood.accepted.size(), flood.refused.get()), baseline, attack, used, bound);
        } finally {
            harness.close();
        }
    }

    /** Bursts of {@link #PER_CALL} broadcasts on one channel until stopped, as an endpoint called repeatedly would. */
    private final class Flood implements Runnable {
        final String channel;
        final AtomicBoolean running = new AtomicBoolean(true);
        final CompletableFuture<Void> firstBurst = new CompletableFuture<>();
        final List<CompletableFuture<Void>> accepted = new ArrayList<>();
        final AtomicLong refused = new AtomicLong();
        /** Refusals that walked the stack: each cost more than the refusal itself, for nobody to read. */
        final AtomicLong withStackTrace = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final AtomicLong bursts = new AtomicLong();
        private final String payload = "n".repeat(PAYLOAD);

        Flood(String channel) {
            this.channel = channel;
        }

        @Override
        public void run() {
            try {
                while (running.get()) {
                    long started = System.nanoTime();
                    burst();
                    bursts.incrementAndGet();
                    firstBurst.complete(null);
                    long rest = CALL_EVERY_MILLIS - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                    if (rest > 0 && running.get()) {
                        Thread.sleep(rest);
                    }
                }
            } catch (Throwable e) {
                firstBurst.completeExceptionally(e);
                failures.incrementAndGet();
            }
        }

        private void burst() {
            for (int i = 0; i < PER_CALL; i++) {
                CompletableFuture<Void> stage = cable.broadcast(channel, payload).toCompletableFuture();
                if (stage.isCompletedExceptionally()) {
                    Throwable cause = causeOf(stage);
                    if (cause instanceof CableException.QueueFull full) {
                        refused.incrementAndGet();
                        if (full.getStackTrace().length > 0) {
                            withStackTrace.incrementAndGet();
                        }
                    } else {
                        failures.incrementAndGet();
                    }
                } else {
                    synchronized (accepted) {
                        accepted.add(stage.exceptionally(e -> {
                            failures.incrementAndGet();
                            return null;
                        }));
                    }
                }
            }
        }
    }

    private static Throwable causeOf(CompletableFuture<Void> failed) {
        try {
            failed.join();
            return null;
        } catch (CompletionException | java.util.concurrent.CancellationException e) {
            return e.getCause();
        }
    }
}
