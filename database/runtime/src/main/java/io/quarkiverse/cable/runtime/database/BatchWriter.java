package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.spi.CableThreads;
import io.quarkiverse.cable.spi.Failure;
import io.quarkiverse.cable.spi.FailureLog;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkiverse.cable.spi.TransportCounters;
import io.quarkiverse.cable.spi.Worker;

/**
 * Writes broadcasts to the database on one virtual thread: takes what is queued (up to the batch size, one channel
 * at a time in turn, waiting at most the batch delay for more), writes it in one transaction, and completes each broadcast's
 * future after commit.
 * A broadcast whose row the database refuses (a data or constraint error) fails alone, at once, and the rest of its
 * batch is written; any other failure is retried with backoff for the retry window, then fails the batch. On stop, everything
 * already accepted is written before the thread ends.
 */
public final class BatchWriter {

    private static final Logger LOG = Logger.getLogger(BatchWriter.class);
    private static final long IDLE_CHECK_MILLIS = 500;
    private static final long FIRST_BACKOFF_MILLIS = 50;
    private static final long MAX_BACKOFF_MILLIS = 2000;
    /** The longest random pause before re-running a batch that lost a conflict; the conflict is already over. */
    private static final long MAX_CONFLICT_PAUSE_MILLIS = 20;

    private final MessageStore store;
    private final int batchSize;
    private final long batchDelayNanos;
    private final Duration retryTimeout;
    private final int maxConflictRetries;
    private final Duration commitTimeout;
    private final CommitDeadline commitDeadline;
    private final TransportCounters stats;
    private final FailureLog failures;
    private final IntConsumer afterCommit;
    private final WriterQueue queue;
    private final Object acceptLock = new Object();
    private volatile boolean accepting = true;
    private final Worker worker = new Worker("writer", this::run);
    private volatile long oldestQueuedAtNanos;
    /** Identifies this writer's batch receipts in cable_writers; new for every start. */
    private final String writerId = UUID.randomUUID().toString();
    private long batchesStarted;
    /**
     * True while the batch in hand may be committed without us knowing: a commit was sent and its answer lost, and no
     * later attempt has read the batch receipt yet. Only the writer thread touches it.
     */
    private boolean commitInDoubt;
    /**
     * The connection kept between batches while broadcasts keep coming (auto-commit off), so a batch costs no pool
     * checkout and no auto-commit switches (a round trip each on MariaDB). Released when the queue is empty after a
     * batch and on every failure. Only the writer thread touches it.
     */
    private Connection held;

    /** {@code afterCommit} receives the size of each committed batch (wakes the poller, feeds the trimmer). */
    public BatchWriter(MessageStore store, CableRuntimeConfig config, TransportCounters stats, IntConsumer afterCommit) {
        this.store = store;
        this.batchSize = config.writer().batchSize();
        this.batchDelayNanos = config.writer().batchDelay().toNanos();
        this.retryTimeout = config.writer().retryTimeout();
        this.maxConflictRetries = config.writer().maxConflictRetries();
        this.commitTimeout = config.writer().commitTimeout();
        this.commitDeadline = new CommitDeadline(store, commitTimeout);
        this.stats = stats;
        this.failures = new FailureLog(LOG, stats);
        this.afterCommit = afterCommit;
        int capacity = config.writer().queueCapacity();
        this.queue = new WriterQueue(capacity, config.writer().maxQueuedPerChannel().orElse(Math.max(1, capacity / 4)));
    }

    /** Starts the writer thread, named {@code cable-writer-<suffix>}. */
    public void start(String suffix) {
        worker.start(suffix);
    }

    /**
     * Queues a broadcast; fails at once when the queue is full, its channel holds its share of the queue, or the
     * writer stopped. Never blocks.
     */
    public CompletableFuture<Void> submit(OutgoingMessage message) {
        // The lock orders submit against stop(): once stop() returned from its flip, nothing else enters the queue.
        synchronized (acceptLock) {
            if (!accepting) {
                return CompletableFuture.failedFuture(new CableException.Stopped());
            }
            switch (queue.offer(message)) {
                case CHANNEL_FULL:
                    return CompletableFuture.failedFuture(CableException.QueueFull.channelShare(queue.share()));
                case FULL:
                    return CompletableFuture.failedFuture(new CableException.QueueFull(queue.capacity()));
                case ACCEPTED:
                    break;
            }
        }
        return message.committed();
    }

    public int queueDepth() {
        return queue.size();
    }

    /** When the batch being written now was first queued (System.nanoTime), or 0 when the writer is idle. */
    public long oldestQueuedAtNanos() {
        return oldestQueuedAtNanos;
    }

    public Worker worker() {
        return worker;
    }

    /** Stops accepting, writes everything accepted so far, then returns (waiting at most {@code timeoutMillis}). */
    public void stop(long timeoutMillis) {
        synchronized (acceptLock) {
            accepting = false;
        }
        if (!worker.stop(timeoutMillis)) {
            LOG.warnf("Cable writer did not finish within %d ms; %d broadcasts were not stored", timeoutMillis,
                    queue.size());
        }
        List<OutgoingMessage> left = new ArrayList<>();
        queue.drainAll(left);
        for (OutgoingMessage message : left) {
            message.committed().completeExceptionally(new CableException.Stopped());
        }
    }

    private void run() {
        try {
            writeUntilStopped();
        } finally {
            releaseConnection();
            commitDeadline.close();
        }
    }

    private void writeUntilStopped() {
        List<OutgoingMessage> batch = new ArrayList<>(batchSize);
        while (accepting || !queue.isEmpty()) {
            try {
                if (nextBatch(batch)) {
                    writeIsolating(batch);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // Defensive: never let the writer die; fail the batch in hand and go on.
                failAll(batch, new CableException.StorageFailed("Cable writer failed unexpectedly", e));
            } finally {
                batch.clear();
                oldestQueuedAtNanos = 0;
                if (queue.isEmpty()) {
                    releaseConnection();
                }
            }
        }
    }

    /**
     * Fills {@code batch} with waiting broadcasts, channels in turn (see {@link WriterQueue}); waits for the first,
     * then at most the batch delay for more.
     */
    private boolean nextBatch(List<OutgoingMessage> batch) throws InterruptedException {
        if (queue.take(batch, batchSize, IDLE_CHECK_MILLIS, TimeUnit.MILLISECONDS) == 0) {
            return false;
        }
        oldestQueuedAtNanos = oldest(batch);
        if (batchDelayNanos > 0) {
            long deadline = System.nanoTime() + batchDelayNanos;
            long remaining;
            while (batch.size() < batchSize && (remaining = deadline - System.nanoTime()) > 0
                    && queue.take(batch, batchSize - batch.size(), remaining, TimeUnit.NANOSECONDS) > 0) {
                // Taken; wait for more until the batch is full or the delay is over.
            }
        }
        return true;
    }

    private static long oldest(List<OutgoingMessage> batch) {
        long oldest = batch.get(0).queuedAtNanos();
        for (OutgoingMessage message : batch) {
            if (message.queuedAtNanos() - oldest < 0) {
                oldest = message.queuedAtNanos();
            }
        }
        return oldest;
    }

    /**
     * Writes the batch, isolating the broadcasts the database refuses.
     * <p>
     * A data or constraint error ({@link MessageStore#rejectsRow}) belongs to one row, but the batch's statements
     * (one multi-row INSERT, or PostgreSQL's array insert) do not say which: the error names no row portably. So the
     * batch is split in two and each half written on its own, first half first (ids and per-channel order stay those
     * of the queue), until the refused broadcast is alone and fails by itself. Bisecting costs about
     * {@code 2 log2(n)} extra transactions per refused broadcast (16 for one in 200), where writing row by row after
     * an error would cost {@code n}; and refused rows are rare, so the common path keeps its single transaction.
     * Everything else is retried with backoff until {@code retry-timeout} from when the batch was taken, shared by
     * the halves, so splitting never extends the window.
     */
    private void writeIsolating(List<OutgoingMessage> batch) throws InterruptedException {
        writeIsolating(batch, System.nanoTime() + retryTimeout.toNanos());
    }

    private void writeIsolating(List<OutgoingMessage> batch, long deadline) throws InterruptedException {
        SQLException refused = writeWithRetry(batch, deadline);
        if (refused == null) {
            return;
        }
        if (batch.size() == 1) {
            OutgoingMessage message = batch.get(0);
            failAll(batch, new CableException.StorageFailed("The database refused the broadcast on '"
                    + message.channel() + "' (" + message.payload().length + " bytes; SQLState "
                    + refused.getSQLState() + ", not retried: the same row fails the same way): "
                    + refused.getMessage(), refused));
            return;
        }
        int half = batch.size() / 2;
        writeIsolating(batch.subList(0, half), deadline);
        writeIsolating(batch.subList(half, batch.size()), deadline);
    }

    /**
     * Writes the batch in one transaction, retrying until {@code deadline}. Returns null when it is done (committed,
     * or failed and its broadcasts told), or the error when the database refused a row's data: then nothing was
     * stored and no broadcast was told yet.
     */
    private SQLException writeWithRetry(List<OutgoingMessage> batch, long deadline) throws InterruptedException {
        long backoff = FIRST_BACKOFF_MILLIS;
        long batchNumber = ++batchesStarted;
        boolean retry = false;
        int conflicts = 0;
        commitInDoubt = false;
        while (true) {
            try {
                writeOnce(batch, batchNumber, retry);
                stats.batchCommitted(batch.size());
                completeAll(batch);
                notifyCommitted(batch.size());
                return null;
            } catch (CommitDeadline.Overran overran) {
                failures.record(Failure.WRITE_RETRY, "commit-timeout", "Cable writer cancelled a commit "
                        + "of " + batch.size() + " broadcasts that took longer than quarkus.cable.writer.commit-timeout ("
                        + commitTimeout + "), e.g. waiting for a synchronous standby; they fail with CommitUnknown",
                        null);
                failAll(batch, new CableException.CommitUnknown("Cable cancelled the commit of " + batch.size()
                        + " broadcasts after quarkus.cable.writer.commit-timeout (" + commitTimeout + "): they may be "
                        + "stored (PostgreSQL keeps a cancelled synchronous commit locally) or not",
                        overran.getCause()));
                // Committed locally, the rows are visible now: other nodes should poll them at once.
                notifyCommitted(batch.size());
                return null;
            } catch (SQLException e) {
                if (!commitInDoubt && store.rejectsRow(e)) {
                    return e;
                }
                if (store.lostConflict(e)) {
                    long pause = ThreadLocalRandom.current().nextLong(1, MAX_CONFLICT_PAUSE_MILLIS + 1);
                    if (conflicts < maxConflictRetries
                            && System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pause) <= deadline) {
                        conflicts++;
                        stats.conflictRetried();
                        LOG.debugf("Cable writer lost a conflict (%s), re-running the batch (%d)", e.getMessage(),
                                conflicts);
                        Thread.sleep(pause);
                        retry = true;
                        continue;
                    }
                    failAll(batch, new CableException.StorageFailed("Cable could not store " + batch.size()
                            + " broadcasts: they lost " + (conflicts + 1) + " conflicts with other transactions in a "
                            + "row (quarkus.cable.writer.max-conflict-retries " + maxConflictRetries
                            + ", retry-timeout " + retryTimeout + "): " + e.getMessage(), e));
                    return null;
                }
                if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff) > deadline) {
                    failAll(batch, givenUp(batch.size(), e));
                    return null;
                }
                failures.record(Failure.WRITE_RETRY, "batch",
                        "Cable writer could not store a batch, retrying in " + backoff + " ms: " + e.getMessage(), null);
                Thread.sleep(backoff);
                backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
                retry = true;
            }
        }
    }

    private CableException givenUp(int size, SQLException last) {
        String window = " within quarkus.cable.writer.retry-timeout (" + retryTimeout + "): ";
        if (commitInDoubt) {
            return new CableException.CommitUnknown("Cable lost the connection while committing " + size
                    + " broadcasts and could not learn" + window + "whether they were stored: " + last.getMessage(),
                    last);
        }
        return new CableException.StorageFailed("Cable could not store " + size + " broadcasts" + window
                + last.getMessage(), last);
    }

    /** The batch is committed whatever happens here: a failing hook is logged, never reported as a failed write. */
    private void notifyCommitted(int rows) {
        try {
            afterCommit.accept(rows);
        } catch (RuntimeException e) {
            LOG.error("Cable after-commit hook failed", e);
        }
    }

    private void writeOnce(List<OutgoingMessage> batch, long batchNumber, boolean retry) throws SQLException {
        Connection connection = connection();
        try {
            if (store.writeWithReceipt(connection, batch, Instant.now(), writerId, batchNumber,
                    retry) == MessageStore.ALREADY_COMMITTED) {
                // An earlier attempt committed; only its acknowledgement was lost.
                connection.rollback();
                return;
            }
            // The receipt was read (or this is the first attempt): no earlier attempt committed. From here until
            // commit() answers, a broken connection leaves this attempt's outcome unknown.
            commitInDoubt = true;
            try {
                commitDeadline.commit(connection);
            } catch (CommitDeadline.Overran overran) {
                // Aborted: it must not be used again, nor returned as held.
                closeQuietly(connection);
                held = null;
                throw overran;
            } catch (SQLException commitFailure) {
                // A lost conflict at COMMIT (a Galera certification failure) is an answer: rolled back whole.
                commitInDoubt = !store.lostConflict(commitFailure);
                throw commitFailure;
            }
            commitInDoubt = false;
        } catch (CommitDeadline.Overran e) {
            throw e;
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(connection);
            // A failed connection goes back to the pool (which discards a broken one); a retry borrows afresh.
            releaseConnection();
            throw e;
        }
    }

    /** The held connection, or a new one from the pool with auto-commit off. */
    private Connection connection() throws SQLException {
        if (held == null) {
            Connection connection = store.connection();
            try {
                connection.setAutoCommit(false);
            } catch (SQLException | RuntimeException e) {
                closeQuietly(connection);
                throw e;
            }
            held = connection;
        }
        return held;
    }

    private void releaseConnection() {
        if (held != null) {
            restoreAutoCommit(held);
            closeQuietly(held);
            held = null;
        }
    }

    /** Completion runs on a fresh virtual thread so callers' continuations never hold up the writer. */
    private static void completeAll(List<OutgoingMessage> batch) {
        List<CompletableFuture<Void>> futures = batch.stream().map(OutgoingMessage::committed).toList();
        CableThreads.startVirtual("cable-committed", () -> futures.forEach(f -> f.complete(null)));
    }

    private static void failAll(List<OutgoingMessage> batch, CableException failure) {
        List<CompletableFuture<Void>> futures = batch.stream().map(OutgoingMessage::committed).toList();
        CableThreads.startVirtual("cable-failed", () -> futures.forEach(f -> f.completeExceptionally(failure)));
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // The connection is broken; the pool discards it.
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // The pool discards it.
        }
    }

    private static void restoreAutoCommit(Connection connection) {
        try {
            connection.setAutoCommit(true);
        } catch (SQLException ignored) {
            // The connection is broken; the pool discards it.
        }
    }
}
