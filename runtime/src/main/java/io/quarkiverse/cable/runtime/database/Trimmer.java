package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.HistorySettings;
import io.quarkiverse.cable.spi.Failure;
import io.quarkiverse.cable.spi.FailureLog;
import io.quarkiverse.cable.spi.TransportCounters;
import io.quarkiverse.cable.spi.Worker;

/**
 * Deletes expired messages in proportion to writes, on its own virtual thread (never on the writer's path).
 * <p>
 * Every committed row earns two rows of trim credit; each full trim batch of credit owes one trim. So trim capacity
 * is twice the write rate for any batch size (Solid Cable's random draw never trims at a batch size of 2), without
 * the variance of a random draw. When a trim finds fewer expired rows than a batch, the debt is forgiven: the table
 * is clean.
 */
public final class Trimmer {

    private static final Logger LOG = Logger.getLogger(Trimmer.class);
    private static final int CREDIT_PER_ROW = 2;

    private final MessageStore store;
    private final boolean autotrim;
    private final int batchSize;
    private final Duration retention;
    private final TransportCounters stats;
    private final FailureLog failures;
    private final AtomicLong credit = new AtomicLong();
    private final AtomicLong trimsOwed = new AtomicLong();
    private final Worker worker = new Worker("trimmer", this::run);

    public Trimmer(MessageStore store, CableRuntimeConfig config, TransportCounters stats) {
        this.store = store;
        this.autotrim = config.trim().enabled();
        this.batchSize = config.trim().batchSize();
        // Trimming keeps what the recovery window promises.
        this.retention = HistorySettings.retentionFor(config.messageRetention(), config.history().window());
        this.stats = stats;
        this.failures = new FailureLog(LOG, stats);
    }

    /** Starts the trimmer thread, named {@code cable-trimmer-<suffix>}. */
    public void start(String suffix) {
        worker.start(suffix);
    }

    public void stop(long timeoutMillis) {
        worker.stop(timeoutMillis);
    }

    public Worker worker() {
        return worker;
    }

    /** Called after each committed batch; cheap, never blocks. */
    public void afterWrite(int rows) {
        if (!autotrim) {
            return;
        }
        long batch = batchSize;
        long total = credit.addAndGet((long) rows * CREDIT_PER_ROW);
        if (total >= batch) {
            long trims = total / batch;
            credit.addAndGet(-trims * batch);
            trimsOwed.addAndGet(trims);
            worker.wake();
        }
    }

    /** Deletes up to one batch of expired messages now; returns how many were deleted. */
    public int trimOnce() throws SQLException {
        Instant cutoff = Instant.now().minus(retention);
        try (Connection connection = store.connection()) {
            // Most owed trims find nothing expired; answer those with one cheap query instead of a locking transaction.
            if (!store.hasExpired(connection, cutoff)) {
                return 0;
            }
            connection.setAutoCommit(false);
            try {
                int deleted = store.trim(connection, cutoff, batchSize);
                store.forgetIdleWriters(connection, cutoff);
                connection.commit();
                stats.trimmed(deleted);
                return deleted;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        }
    }

    private void run() {
        while (worker.running()) {
            if (trimsOwed.get() == 0) {
                LockSupport.park(this);
                continue;
            }
            try {
                int deleted = trimOnce();
                if (deleted < batchSize) {
                    trimsOwed.set(0);
                } else {
                    trimsOwed.decrementAndGet();
                }
            } catch (SQLException | RuntimeException e) {
                failures.record(Failure.TRIM, "trim", "Cable trim failed: " + e.getMessage(), null);
                trimsOwed.set(0);
            }
        }
    }
}
