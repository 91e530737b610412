package io.quarkiverse.cable.runtime;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

/**
 * Counts every failure and logs it, at most once per second per kind with the number suppressed since, so a storm of
 * identical failures (a full queue, a database that is down) cannot flood the log.
 */
public final class FailureLog {

    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Logger log;
    private final CableStats stats;
    private final Map<CableStats.Failure, AtomicLong> lastLogged = new EnumMap<>(CableStats.Failure.class);
    private final Map<CableStats.Failure, AtomicLong> suppressed = new EnumMap<>(CableStats.Failure.class);

    public FailureLog(Logger log, CableStats stats) {
        this.log = log;
        this.stats = stats;
        for (CableStats.Failure failure : CableStats.Failure.values()) {
            lastLogged.put(failure, new AtomicLong(System.nanoTime() - INTERVAL_NANOS));
            suppressed.put(failure, new AtomicLong());
        }
    }

    public void record(CableStats.Failure kind, String message, Throwable cause) {
        stats.failed(kind);
        AtomicLong last = lastLogged.get(kind);
        long now = System.nanoTime();
        long previous = last.get();
        if (now - previous < INTERVAL_NANOS || !last.compareAndSet(previous, now)) {
            suppressed.get(kind).incrementAndGet();
            return;
        }
        long skipped = suppressed.get(kind).getAndSet(0);
        String text = skipped == 0 ? message : message + " (" + skipped + " similar failures not logged)";
        if (cause == null) {
            log.warn(text);
        } else {
            log.warn(text, cause);
        }
    }
}
