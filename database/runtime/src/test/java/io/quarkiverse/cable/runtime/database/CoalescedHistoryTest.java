package io.quarkiverse.cable.runtime.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.CableException.HistoryUnavailable;
import io.quarkiverse.cable.CableException.HistoryUnavailable.Reason;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.spi.HistoryRequest;
import io.quarkiverse.cable.spi.HistorySource;
import io.quarkiverse.cable.spi.Replay;

/**
 * Admission and coalescing of history reads, against a history source whose reads the test holds open (a latch), so
 * that "in flight" is exact rather than a matter of timing. The same bounds on real databases: ReplayAdmissionTest
 * in the integration tests.
 */
class CoalescedHistoryTest {

    /** A source that counts its reads and blocks each until released. */
    static final class HeldSource implements HistorySource {
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger mostRunning = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch firstStarted = new CountDownLatch(1);

        @Override
        public Replay replay(String channel, long channelHash, HistoryRequest request, long startingLine)
                throws Exception {
            reads.incrementAndGet();
            mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            firstStarted.countDown();
            try {
                assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
                return new Replay(List.of(new CableMessage(startingLine, channel, "m".getBytes(), false, 1, "e")),
                        new StreamPosition("e", 1));
            } finally {
                running.decrementAndGet();
            }
        }
    }

    private static final HistoryRequest FROM_ZERO = new HistoryRequest.After(new StreamPosition("e", 0));

    @Test
    void identicalConcurrentReplaysAreOneRead() throws Exception {
        HeldSource source = new HeldSource();
        CableStats stats = new CableStats();
        CoalescedHistory history = new CoalescedHistory(source, new ReplayLimits(1, 1000, Duration.ofSeconds(30),
                200), stats);
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        try {
            Future<Replay> leader = threads.submit(() -> history.replay("room", 7, FROM_ZERO, 100));
            assertThat(source.firstStarted.await(30, TimeUnit.SECONDS)).isTrue();
            List<Future<Replay>> joined = new ArrayList<>();
            for (int i = 0; i < 199; i++) {
                joined.add(threads.submit(() -> history.replay("room", 7, new HistoryRequest.After(
                        new StreamPosition("e", 0)), 100)));
            }
            // Every joiner is counted before the read is let go, so all 199 joined the one in flight.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (stats.replaysCoalesced() < 199 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            source.release.countDown();
            Replay first = leader.get(30, TimeUnit.SECONDS);
            for (Future<Replay> replay : joined) {
                assertThat(replay.get(30, TimeUnit.SECONDS).messages()).isEqualTo(first.messages());
            }
            assertThat(source.reads).hasValue(1);
            assertThat(stats.historyReads()).isEqualTo(1);
            assertThat(stats.replaysCoalesced()).isEqualTo(199);
            // Nothing is cached: the next identical request reads again.
            history.replay("room", 7, FROM_ZERO, 100);
            assertThat(source.reads).hasValue(2);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void readsBeyondTheShareWaitAndBeyondTheQueueAreRefusedAsBusy() throws Exception {
        HeldSource source = new HeldSource();
        CableStats stats = new CableStats();
        CoalescedHistory history = new CoalescedHistory(source, new ReplayLimits(2, 3, Duration.ofSeconds(30),
                200), stats);
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        try {
            List<Future<Replay>> admitted = new ArrayList<>();
            // Distinct starting lines: nothing coalesces. Two run, three wait.
            for (int i = 0; i < 5; i++) {
                long line = i;
                admitted.add(threads.submit(() -> history.replay("room", 7, FROM_ZERO, line)));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((source.running.get() < 2 || history.waiting() < 3) && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(source.running).hasValue(2);
            assertThat(history.waiting()).isEqualTo(3);
            assertThatThrownBy(() -> history.replay("room", 7, FROM_ZERO, 99))
                    .isInstanceOfSatisfying(HistoryUnavailable.class, e -> assertThat(e.reason()).isEqualTo(Reason.BUSY));
            source.release.countDown();
            for (Future<Replay> replay : admitted) {
                assertThat(replay.get(30, TimeUnit.SECONDS).messages()).hasSize(1);
            }
            assertThat(source.mostRunning).hasValue(2);
            assertThat(source.reads).hasValue(5);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aReadThatWaitsLongerThanTheQueueTimeoutIsRefusedAsBusy() throws Exception {
        HeldSource source = new HeldSource();
        CoalescedHistory history = new CoalescedHistory(source, new ReplayLimits(1, 10, Duration.ofMillis(50),
                200), new CableStats());
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        try {
            Future<Replay> running = threads.submit(() -> history.replay("room", 7, FROM_ZERO, 1));
            assertThat(source.firstStarted.await(30, TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(() -> history.replay("room", 7, FROM_ZERO, 2))
                    .isInstanceOfSatisfying(HistoryUnavailable.class, e -> assertThat(e.reason()).isEqualTo(Reason.BUSY));
            source.release.countDown();
            assertThat(running.get(30, TimeUnit.SECONDS).messages()).hasSize(1);
        } finally {
            threads.shutdownNow();
        }
    }
}
