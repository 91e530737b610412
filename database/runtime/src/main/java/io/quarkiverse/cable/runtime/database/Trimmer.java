package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.HistorySettings;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkiverse.cable.spi.ChannelHash;
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
 * <p>
 * The live-only channels (whispers, presence events, disconnect commands) are never replayed: every node's poller
 * delivers their rows live, and nothing reads them afterwards. Keeping them for {@code message-retention} (a day)
 * let one connection's whispers fill the database with gigabytes. So they have a retention of their own,
 * {@code trim.live-retention}, enforced every half of it on a schedule that does not depend on trim credit (a burst
 * of whispers followed by silence owes no trim, and its rows must still go), nor on {@code trim.enabled} (that turns
 * off the cable's deletion of what the application may still want; nobody wants whispers a day later).
 */
public final class Trimmer {

    private static final Logger LOG = Logger.getLogger(Trimmer.class);
    private static final int CREDIT_PER_ROW = 2;

    private final MessageStore store;
    private final boolean autotrim;
    private final int batchSize;
    private final Duration retention;
    /** The channels whose rows are only read live, by every node's poller (see the class comment). */
    static final List<String> LIVE_ONLY_CHANNELS = List.of(IdentityChannels.WHISPERS, IdentityChannels.PRESENCE,
            IdentityChannels.CONTROL);
    private static final long[] LIVE_ONLY_HASHES = LIVE_ONLY_CHANNELS.stream().mapToLong(ChannelHash::of).toArray();
    private final Duration liveRetention;
    private final long livePeriodNanos;
    private final TransportCounters stats;
    private final FailureLog failures;
    private final AtomicLong credit = new AtomicLong();
    private final AtomicLong trimsOwed = new AtomicLong();
    private final Worker worker = new Worker("trimmer", this::run);

    public Trimmer(MessageStore store, CableRuntimeConfig config, CableDatabaseConfig database, TransportCounters stats) {
        this.store = store;
        this.autotrim = database.trim().enabled();
        this.batchSize = database.trim().batchSize();
        // Trimming keeps what the recovery window promises.
        this.retention = HistorySettings.retentionFor(config.messageRetention(), config.history().window());
        this.liveRetention = database.trim().liveRetention();
        this.livePeriodNanos = Math.max(1, liveRetention.toNanos() / 2);
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

    /**
     * Deletes the live-only channels' rows older than {@code trim.live-retention}, batch after batch until none is
     * left; returns how many were deleted.
     */
    public int trimLiveOnce() throws SQLException {
        Instant cutoff = Instant.now().minus(liveRetention);
        int total = 0;
        try (Connection connection = store.connection()) {
            for (long channelHash : LIVE_ONLY_HASHES) {
                int deleted;
                do {
                    connection.setAutoCommit(false);
                    try {
                        deleted = store.trimChannel(connection, channelHash, cutoff, batchSize);
                        connection.commit();
                    } catch (SQLException | RuntimeException e) {
                        connection.rollback();
                        throw e;
                    } finally {
                        connection.setAutoCommit(true);
                    }
                    stats.trimmed(deleted);
                    total += deleted;
                    // A short batch: this channel has nothing expired left (or only rows another node is deleting).
                } while (deleted == batchSize && worker.running());
            }
        }
        return total;
    }

    private void run() {
        long nextLiveTrim = System.nanoTime() + livePeriodNanos;
        while (worker.running()) {
            if (System.nanoTime() - nextLiveTrim >= 0) {
                try {
                    trimLiveOnce();
                } catch (SQLException | RuntimeException e) {
                    failures.record(Failure.TRIM, "Cable trim of live-only channels failed: " + e.getMessage(), null);
                }
                nextLiveTrim = System.nanoTime() + livePeriodNanos;
                continue;
            }
            if (trimsOwed.get() == 0) {
                LockSupport.parkNanos(this, nextLiveTrim - System.nanoTime());
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
