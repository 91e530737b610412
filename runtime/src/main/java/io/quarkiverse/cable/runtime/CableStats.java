package io.quarkiverse.cable.runtime;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one cable, updated on the data path without locks. Health checks and metrics read them.
 */
public final class CableStats {

    public enum Failure {
        QUEUE_FULL,
        STOPPED,
        STORAGE,
        COMMIT_UNKNOWN,
        INVALID,
        POLL,
        WRITE_RETRY,
        TRIM,
        SLOW_CONSUMER,
        LISTENER
    }

    public final LongAdder broadcasts = new LongAdder();
    public final LongAdder committed = new LongAdder();
    public final LongAdder batches = new LongAdder();
    public final LongAdder polls = new LongAdder();
    public final LongAdder rowsPolled = new LongAdder();
    public final LongAdder deliveries = new LongAdder();
    public final LongAdder rowsTrimmed = new LongAdder();
    private final Map<Failure, LongAdder> failures = new EnumMap<>(Failure.class);

    /**
     * Receives timings from the data path. The Micrometer binding installs one when Micrometer is present; the
     * default does nothing, so the data path never touches a metrics library.
     */
    public interface Observer {
        Observer NONE = new Observer() {
        };

        /** One poll that ran a query: how long it took (borrowing the connection included) and how many rows. */
        default void polled(long durationNanos, int rows) {
        }

        /** One polled row: milliseconds from its write (created_at) to its hand-off to local subscribers. */
        default void pollLag(long lagMillis) {
        }

        /** One committed writer batch of {@code size} broadcasts. */
        default void batchCommitted(int size) {
        }
    }

    /** Where timings go; replaced at startup by the metrics binding. */
    public volatile Observer observer = Observer.NONE;
    /** The largest write-to-hand-off lag of the rows of the last poll, in milliseconds; 0 after an empty poll. */
    public volatile long lastPollLagMillis;
    /** How long the last poll that ran a query took, in nanoseconds. */
    public volatile long lastPollDurationNanos;

    public CableStats() {
        for (Failure failure : Failure.values()) {
            failures.put(failure, new LongAdder());
        }
    }

    public void failed(Failure failure) {
        failures.get(failure).increment();
    }

    public long failures(Failure failure) {
        return failures.get(failure).sum();
    }
}
