package io.quarkiverse.cable.runtime.database;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.quarkiverse.cable.CableException.HistoryUnavailable;
import io.quarkiverse.cable.CableException.HistoryUnavailable.Reason;
import io.quarkiverse.cable.StreamPosition;

/**
 * The history reads' share of the datasource's pool: at most {@code maxConcurrent} reads hold a connection at once,
 * at most {@code maxQueued} wait for one (each for at most the queue timeout), and the rest are refused at once with
 * {@link Reason#BUSY}. A semaphore over the application's pool rather than a pool of its own: the database sees no
 * extra connections, and what the writer, the poller, the trimmer and the doorbell need stays free however many
 * clients ask for history at once. Waiting is fair (first come, first served).
 */
final class ReplayAdmission {

    private final Semaphore running;
    private final AtomicInteger waiting = new AtomicInteger();
    private final int maxQueued;
    private final long timeoutNanos;

    ReplayAdmission(ReplayLimits limits) {
        this.running = new Semaphore(limits.maxConcurrent(), true);
        this.maxQueued = limits.maxQueued();
        this.timeoutNanos = limits.queueTimeout().toNanos();
    }

    /** Waits for a share; the caller must {@link #release()} it. */
    void acquire(String channel, StreamPosition asked) throws InterruptedException {
        if (running.tryAcquire()) {
            return;
        }
        if (waiting.incrementAndGet() > maxQueued) {
            waiting.decrementAndGet();
            throw new HistoryUnavailable(channel, asked, Reason.BUSY,
                    "more than quarkus.cable.history.max-queued-replays (" + maxQueued + ") history reads waiting");
        }
        try {
            if (!running.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS)) {
                throw new HistoryUnavailable(channel, asked, Reason.BUSY, "no history read share free within "
                        + "quarkus.cable.history.queue-timeout (" + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
                        + " ms)");
            }
        } finally {
            waiting.decrementAndGet();
        }
    }

    void release() {
        running.release();
    }

    int waiting() {
        return waiting.get();
    }
}
