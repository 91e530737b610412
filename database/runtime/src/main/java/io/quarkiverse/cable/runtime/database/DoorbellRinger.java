package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import io.quarkiverse.cable.spi.Failure;
import io.quarkiverse.cable.spi.FailureLog;
import io.quarkiverse.cable.spi.WakeupStats;
import io.quarkiverse.cable.spi.Worker;

/**
 * With {@code ring=after-commit}: sends the doorbell's NOTIFY on a thread of its own, after the batch committed and
 * outside its transaction. The writer only raises a flag, so ringing never adds a round trip to a batch or holds the
 * shard lock longer (the measurements are on the Performance page). Batches that commit while a ring is in flight
 * share the next ring, so there is at most one NOTIFY per committed batch. A failed ring is counted and dropped: the
 * other nodes' polls cover it.
 */
final class DoorbellRinger {

    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final PooledConnections pool;
    private final SqlDialect dialect;
    private final String selfId;
    private final WakeupStats stats;
    private final FailureLog failures;
    private final AtomicBoolean pending = new AtomicBoolean();
    private final Worker worker = new Worker("doorbell-ringer", this::run);

    /** A connection from the application's pool, borrowed for one ring. */
    interface PooledConnections {
        Connection get() throws SQLException;
    }

    DoorbellRinger(PooledConnections pool, SqlDialect dialect, String selfId, WakeupStats stats, FailureLog failures) {
        this.pool = pool;
        this.dialect = dialect;
        this.selfId = selfId;
        this.stats = stats;
        this.failures = failures;
    }

    void start(String suffix) {
        worker.start(suffix);
    }

    /** Never blocks: raises the flag and unparks the ringer. */
    void ring() {
        pending.set(true);
        worker.wake();
    }

    /** Sends what is still pending, then ends. */
    void stop(long timeoutMillis) {
        worker.stop(timeoutMillis);
    }

    Worker worker() {
        return worker;
    }

    private void run() {
        while (worker.running() || pending.get()) {
            if (!pending.getAndSet(false)) {
                LockSupport.parkNanos(IDLE_PARK_NANOS);
                continue;
            }
            try (Connection connection = pool.get();
                    PreparedStatement statement = connection.prepareStatement(dialect.ringDoorbell())) {
                statement.setString(1, selfId);
                statement.execute();
                stats.ringsSent.increment();
            } catch (SQLException | RuntimeException e) {
                failures.record(Failure.WAKEUP, "doorbell-ring", "Cable doorbell could not ring (other nodes will see the"
                        + " broadcasts at their next poll): " + e.getMessage(), e instanceof SQLException ? null : e);
            }
        }
    }
}
