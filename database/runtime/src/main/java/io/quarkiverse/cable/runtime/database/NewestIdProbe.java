package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.quarkiverse.cable.spi.Failure;
import io.quarkiverse.cable.spi.Wakeup;
import io.quarkiverse.cable.spi.WakeupStats;
import io.quarkiverse.cable.spi.Worker;

/**
 * For databases without NOTIFY (MariaDB, MySQL): reads the newest committed id, one row by primary key, every
 * {@code probe-interval} while this node subscribes to at least one channel, and wakes the poller only when it moved.
 * So the full poll runs when there is something to read, and the cheap probe carries the short interval.
 * <p>
 * It adapts: with no subscribed channel it does not query at all; when the poller completed a cycle within the last
 * interval (this node is busy, or its own broadcasts woke it) the probe is skipped, since that poll just looked.
 * Failures are counted and retried with backoff; polling covers the gap.
 */
final class NewestIdProbe implements Wakeup {

    /** How often it looks whether a channel got subscribed; no query runs meanwhile. */
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long FIRST_BACKOFF_MILLIS = 100;

    private final WakeupParts parts;
    private final WakeupStats stats;
    private final Worker worker = new Worker("probe", this::run);

    NewestIdProbe(WakeupParts parts) {
        this.parts = parts;
        this.stats = parts.stats();
    }

    @Override
    public String mode() {
        return "probe";
    }

    @Override
    public void start() {
        worker.start(parts.threadSuffix());
    }

    @Override
    public void stop(long timeoutMillis) {
        worker.stop(timeoutMillis);
    }

    @Override
    public WakeupStats stats() {
        return stats;
    }

    @Override
    public List<Worker> workers() {
        return List.of(worker);
    }

    private void run() {
        long intervalNanos = parts.settings().probeInterval().toNanos();
        long maxBackoff = parts.settings().maxReconnectBackoff().toMillis();
        long backoff = FIRST_BACKOFF_MILLIS;
        long seen = -1;
        while (worker.running()) {
            if (parts.channelCount().getAsInt() == 0) {
                // Forget the last id: the first probe after a channel gets subscribed wakes the poller, whatever
                // committed in between.
                seen = -1;
                LockSupport.parkNanos(IDLE_NANOS);
                continue;
            }
            if (System.nanoTime() - parts.lastPollNanos().getAsLong() < intervalNanos && seen >= 0) {
                LockSupport.parkNanos(intervalNanos);
                continue;
            }
            try {
                long newest = newestId();
                stats.probes.increment();
                if (newest != seen) {
                    stats.probesMoved.increment();
                    parts.wake().run();
                }
                seen = newest;
                backoff = FIRST_BACKOFF_MILLIS;
                LockSupport.parkNanos(intervalNanos);
            } catch (SQLException | RuntimeException e) {
                parts.failures().record(Failure.WAKEUP, "probe", "Cable newest-id probe failed, retrying in "
                        + backoff + " ms (polling covers the gap): " + e.getMessage(),
                        e instanceof SQLException ? null : e);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(backoff));
                backoff = Math.min(maxBackoff, backoff * 2);
            }
        }
    }

    private long newestId() throws SQLException {
        try (Connection connection = parts.pool().get();
                PreparedStatement statement = connection.prepareStatement(parts.dialect().newestId());
                ResultSet rows = statement.executeQuery()) {
            return rows.next() ? rows.getLong(1) : 0;
        }
    }
}
