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
