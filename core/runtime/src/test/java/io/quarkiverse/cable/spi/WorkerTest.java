package io.quarkiverse.cable.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

/**
 * A wake-up is never lost: not when it arrives while the loop itself waits inside its work (a JDBC read or a lock parks
 * the same thread and would use up a bare unpark), nor when it arrives before the loop goes idle.
 */
class WorkerTest {

    private static final long HOUR = TimeUnit.HOURS.toNanos(1);

    @Test
    void wakeArrivingWhileTheWorkParksEndsTheNextIdle() throws Exception {
        CountDownLatch inWork = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch idleReturned = new CountDownLatch(1);
        AtomicInteger cycles = new AtomicInteger();
        Worker[] worker = new Worker[1];
        worker[0] = new Worker("test", () -> {
            while (worker[0].running()) {
                if (cycles.incrementAndGet() == 1) {
                    inWork.countDown();
                    try {
                        release.await(); // parks this thread, as a database read does
                    } catch (InterruptedException e) {
                        return;
                    }
                    worker[0].idle(HOUR);
                    idleReturned.countDown();
                } else {
                    worker[0].idle(HOUR);
                }
            }
        });
        worker[0].start("wake-check");
        try {
            assertThat(inWork.await(30, TimeUnit.SECONDS)).isTrue();
            awaitParked(worker[0].thread());
            worker[0].wake(); // ends the latch's park, which goes back to waiting: the unpark is used up there
            release.countDown();
            assertThat(idleReturned.await(30, TimeUnit.SECONDS)).as("idle returns for a wake-up that came during"
                    + " the work").isTrue();
        } finally {
            assertThat(worker[0].stop(30_000)).isTrue();
        }
    }

    @Test
    void idleWithoutWakeWaitsAndStopEndsIt() throws Exception {
        CountDownLatch idling = new CountDownLatch(1);
        boolean[] woken = new boolean[] { true };
        Worker[] worker = new Worker[1];
        worker[0] = new Worker("test", () -> {
            idling.countDown();
            woken[0] = worker[0].idle(HOUR);
        });
        worker[0].start("idle-check");
        assertThat(idling.await(30, TimeUnit.SECONDS)).isTrue();
        awaitParked(worker[0].thread());
        assertThat(worker[0].thread().isAlive()).isTrue();
        assertThat(worker[0].stop(30_000)).isTrue();
        assertThat(woken[0]).as("stopping is not a wake-up").isFalse();
    }

    private static void awaitParked(Thread thread) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
            assertThat(System.nanoTime()).as("%s parked", thread).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
