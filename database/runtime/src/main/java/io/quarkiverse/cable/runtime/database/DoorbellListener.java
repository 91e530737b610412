package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import io.quarkiverse.cable.spi.Failure;
import io.quarkiverse.cable.spi.FailureLog;
import io.quarkiverse.cable.spi.WakeupStats;
import io.quarkiverse.cable.spi.Worker;

/**
 * LISTENs for the doorbell on one dedicated connection, outside the pool, and wakes the poller when another node
 * rings. A notification is only a hint: its payload names the ringing node so this node can ignore its own rings (it
 * woke its poller locally already), and a forged or lost notification costs at most one polling interval.
 * <p>
 * When the connection fails (killed session, restarted database, network) it reconnects with doubling backoff up to
 * {@code max-reconnect-backoff}. On every (re)connect it wakes the poller once, because rings sent while nobody
 * listened are gone. A half-open connection is caught by a validity check every {@code listener-check-interval}.
 */
final class DoorbellListener {

    /** How long one wait for notifications lasts; bounds how long stop() waits. */
    private static final int WAIT_MILLIS = 500;
    private static final long FIRST_BACKOFF_MILLIS = 100;
    private static final int VALIDITY_TIMEOUT_SECONDS = 5;

    private final UnpooledConnections connections;
    private final SqlDialect dialect;
    private final String selfId;
    private final Runnable wake;
    private final WakeupSettings settings;
    private final WakeupStats stats;
    private final FailureLog failures;
    private final SilentDoorbellCheck silence;
    private final Worker worker = new Worker("doorbell-listener", this::run);

    DoorbellListener(UnpooledConnections connections, SqlDialect dialect, String selfId, Runnable wake,
            WakeupSettings settings, WakeupStats stats, FailureLog failures, LongSupplier pollsWithRows) {
        this.connections = connections;
        this.dialect = dialect;
        this.selfId = selfId;
        this.wake = wake;
        this.settings = settings;
        this.stats = stats;
        this.failures = failures;
        this.silence = new SilentDoorbellCheck(pollsWithRows, stats, connections.jdbcUrl());
    }

    void start(String suffix) {
        worker.start(suffix);
    }

    void stop(long timeoutMillis) {
        worker.stop(timeoutMillis);
    }

    Worker worker() {
        return worker;
    }

    private void run() {
        long backoff = FIRST_BACKOFF_MILLIS;
        long maxBackoff = settings.maxReconnectBackoff().toMillis();
        while (worker.running()) {
            Connection connection = null;
            try {
                connection = connections.open();
                try (Statement statement = connection.createStatement()) {
                    statement.execute(dialect.listenDoorbell());
                }
                stats.connected = true;
                stats.listenerConnects.increment();
                silence.connected(System.nanoTime());
                backoff = FIRST_BACKOFF_MILLIS;
                wake.run();
                listen(connection);
            } catch (SQLException | RuntimeException e) {
                stats.connected = false;
                if (!worker.running()) {
                    break;
                }
                failures.record(Failure.WAKEUP, "doorbell-listener",
                        "Cable doorbell listener lost its connection, reconnecting in "
                                + backoff + " ms (polling covers the gap): " + e.getMessage(),
                        e instanceof SQLException ? null : e);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(backoff));
                backoff = Math.min(maxBackoff, backoff * 2);
            } finally {
                stats.connected = false;
                stats.silent = false;
                closeQuietly(connection);
            }
        }
    }

    private void listen(Connection connection) throws SQLException {
        PGConnection pg = connection.unwrap(PGConnection.class);
        long checkNanos = settings.listenerCheckInterval().toNanos();
        long nextCheck = System.nanoTime() + checkNanos;
        while (worker.running()) {
            PGNotification[] notifications = pg.getNotifications(WAIT_MILLIS);
            if (notifications != null && notifications.length > 0) {
                stats.notificationsReceived.add(notifications.length);
                silence.heard();
                int fromOthers = 0;
                for (PGNotification notification : notifications) {
                    if (!selfId.equals(notification.getParameter())) {
                        fromOthers++;
                    }
                }
                if (fromOthers > 0) {
                    stats.ringsHeard.add(fromOthers);
                    wake.run();
                }
            }
            silence.check(System.nanoTime());
            if (System.nanoTime() - nextCheck >= 0) {
                if (!connection.isValid(VALIDITY_TIMEOUT_SECONDS)) {
                    throw new SQLException("the listener connection stopped answering");
                }
                nextCheck = System.nanoTime() + checkNanos;
            }
        }
    }

    private static void closeQuietly(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // Already broken or closed.
            }
        }
    }
}
