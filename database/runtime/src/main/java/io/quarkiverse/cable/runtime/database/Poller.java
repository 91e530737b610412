package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.spi.Failure;
import io.quarkiverse.cable.spi.FailureLog;
import io.quarkiverse.cable.spi.PendingSubscription;
import io.quarkiverse.cable.spi.PolledMessage;
import io.quarkiverse.cable.spi.Subscribers;
import io.quarkiverse.cable.spi.TransportCounters;
import io.quarkiverse.cable.spi.Worker;

/**
 * Reads new messages after a cursor, in id order, and dispatches them to local subscribers, on one virtual thread.
 * <p>
 * It also starts subscriptions: it reads the newest committed id as the subscription's starting line, adds the
 * subscription to the map, then confirms it; all on this thread, so no poll can run between the two. Because ids
 * become visible in commit order, the subscriber then receives exactly the messages committed after its starting
 * line. Any exception is counted, logged and retried with backoff: the poller never dies.
 */
final class Poller {

    private static final Logger LOG = Logger.getLogger(Poller.class);
    private static final long FIRST_BACKOFF_MILLIS = 50;
    private static final long MAX_BACKOFF_MILLIS = 5000;

    private final MessageStore store;
    private final Subscribers subscribers;
    private final long intervalNanos;
    private final int batchSize;
    private final TransportCounters stats;
    private final FailureLog failures;
    private final ConcurrentLinkedQueue<PendingSubscription> pending = new ConcurrentLinkedQueue<>();
    private final Worker worker = new Worker("poller", this::run);
    private volatile long cursor;
    /**
     * Where the ids of the database identity writers last recorded start, as of the last poll: writers set it when
     * they find a new identity (see {@link #reanchorOnIdentityChange}), and only then.
     */
    private long identitySince;
    /** Set by {@link #stop}: a subscription queued from then on is ended, since no poll will ever start it. */
    private volatile boolean stopped;
    private volatile long lastSuccessNanos = System.nanoTime();
    private volatile boolean trackHorizon;
    private volatile long horizon;

    public Poller(MessageStore store, Subscribers subscribers, CableDatabaseConfig config, TransportCounters stats) {
        this.store = store;
        this.subscribers = subscribers;
        this.intervalNanos = config.pollingInterval().toNanos();
        this.batchSize = config.pollBatchSize();
        this.stats = stats;
        this.failures = new FailureLog(LOG, stats);
    }

    /**
     * Initialises the cursor to the newest committed id right away (not on the first poll, which would skip what is
     * committed in between), then starts the thread, named {@code cable-poller-<suffix>}.
     */
    public void start(String suffix) throws SQLException {
        try (Connection connection = store.connection()) {
            cursor = store.newestId(connection);
            identitySince = store.identityState(connection).since();
        }
        worker.start(suffix);
    }

    /**
     * Queues a subscription to be started on the poller thread, and wakes the poller. Once the poller has stopped the
     * subscription is ended instead: queued after {@link #stop} drained the queue, it would be neither confirmed nor
     * ended, and whoever waits for its confirmation would wait forever.
     */
    public void startSubscription(PendingSubscription subscription) {
        pending.add(subscription);
        if (stopped) {
            endPending();
            return;
        }
        wake();
    }

    /** Polls now rather than at the end of the interval (a broadcast was just committed on this node). */
    public void wake() {
        worker.wake();
    }

    public void stop(long timeoutMillis) {
        stopped = true;
        worker.stop(timeoutMillis);
        endPending();
    }

    private void endPending() {
        PendingSubscription subscription;
        while ((subscription = pending.poll()) != null) {
            subscription.end(new CableException.Stopped());
        }
    }

    public long cursor() {
        return cursor;
    }

    public long lastSuccessNanos() {
        return lastSuccessNanos;
    }

    /**
     * Makes each poll also read the newest committed id (one primary-key lookup on the poll's connection), so
     * {@link #horizon()} knows how far this node has read even when the newest rows belong to channels nobody here
     * subscribes to. Turned on by the health check and the metrics; off, the poll runs one query as before.
     */
    public void trackHorizon() {
        trackHorizon = true;
    }

    /**
     * The id up to which every message of a subscribed channel has been read: the cursor, or more when
     * {@link #trackHorizon()} is on and the last poll read everything up to the newest id it saw.
     */
    public long horizon() {
        return Math.max(cursor, horizon);
    }

    public Worker worker() {
        return worker;
    }

    private void run() {
        long backoff = FIRST_BACKOFF_MILLIS;
        while (worker.running()) {
            try {
                boolean more = pollOnce();
                lastSuccessNanos = System.nanoTime();
                backoff = FIRST_BACKOFF_MILLIS;
                if (!more && worker.running()) {
                    worker.idle(intervalNanos);
                }
            } catch (Throwable e) {
                failures.record(Failure.POLL, "poll",
                        "Cable poller failed, retrying in " + backoff + " ms: " + e.getMessage(),
                        e instanceof SQLException ? null : e);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(backoff));
                backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
            }
        }
    }

    /** One cycle; returns true when a full batch was read and more rows are probably waiting. */
    private boolean pollOnce() throws SQLException {
        if (pending.isEmpty() && subscribers.channelCount() == 0) {
            return false;
        }
        List<PolledMessage> messages;
        long started = System.nanoTime();
        long newest = -1;
        try (Connection connection = store.connection()) {
            startPending(connection);
            int channels = subscribers.channelCount();
            if (channels == 0) {
                return false;
            }
            // Past the dialect's IN-list limit the poll reads every channel and the subscriber map filters.
            int maxFiltered = store.maxFilteredChannels();
            long[] hashes = channels <= maxFiltered ? subscribers.channelHashes() : null;
            if (hashes != null && hashes.length == 0) {
                return false;
            }
            if (hashes != null && hashes.length > maxFiltered) {
                hashes = null; // channels were added since the count was read
            }
            if (trackHorizon) {
                // Read before the poll: every id up to it is committed, so the poll below sees all of them.
                newest = store.newestId(connection);
            }
            messages = store.poll(connection, cursor, hashes, batchSize);
            // Read after the poll: a writer renews the identity in the transaction of its first batch on the new
            // database, so rows of that database the poll returned are always caught here, and dropped unread.
            if (reanchorOnIdentityChange(store.identityState(connection))) {
                return true;
            }
        }
        long duration = System.nanoTime() - started;
        stats.polled(duration, messages.size());
        if (LOG.isTraceEnabled()) {
            LOG.tracef("Cable poll after %d returned %d messages", cursor, messages.size());
        }
        long maxLag = 0;
        for (PolledMessage polled : messages) {
            stats.delivered(subscribers.dispatch(polled.channelHash(), polled.message(), polled.excludedSession()));
            cursor = polled.message().id();
            if (polled.createdAtMillis() > 0) {
                // Wall clocks: created_at is the writer's clock; skew between nodes shows up here (clamped at 0).
                long lag = Math.max(0, System.currentTimeMillis() - polled.createdAtMillis());
                maxLag = Math.max(maxLag, lag);
                stats.pollLag(lag);
            }
        }
        stats.lastPollLag(maxLag);
        boolean full = messages.size() == batchSize;
        if (!full && newest > horizon) {
            horizon = newest;
        }
        return full;
    }

    /**
     * After a failover to a database that lacks the newest messages, ids start again below what this node has read:
     * {@code id > cursor} would skip the new database's rows up to the old cursor. Writers record the new database's
     * identity and the last id it had ({@code since}); the cursor goes back there. A last id below the cursor (the
     * database lost rows, and no writer has recorded it yet, or it had no identity recorded at all) moves the cursor
     * back to it at once. What the node had read past that point was acknowledged on the old database and is not on
     * the new one: counted and logged.
     *
     * @return whether the cursor was moved back or the epochs renewed (the caller drops what it polled, whose epochs
     *         may be stale, and polls again)
     */
    private boolean reanchorOnIdentityChange(MessageStore.IdentityState state) {
        boolean renewed = state.since() != identitySince;
        if (!renewed && state.lastId() >= cursor) {
            return false;
        }
        identitySince = state.since();
        if (renewed) {
            stats.databaseIdentityChanged();
            // Every channel has a new epoch, even when this node read nothing the failover lost: a cached epoch would
            // label the new database's next position (which continues the cached one) with the old epoch.
            store.forgetEpochs();
        }
        long anchor = renewed ? state.since() : state.lastId();
        if (anchor >= cursor) {
            // Nothing this node read is missing: no row to read again. Still said once, as a warning (the failover
            // page promises it from every node's poller): every recovery on this node now answers "history lost".
            LOG.warnf("Quarkus Cable: the database is not the one this node read from (identity now %s); nothing"
                    + " this node had read is missing from it; channels get new epochs, so clients recovering across"
                    + " the change are told their history is lost", state.identity());
            return renewed;
        }
        long lost = cursor - anchor;
        LOG.warnf("Quarkus Cable: the database is not the one this node read from (identity now %s): the poller goes"
                + " back from id %d to %d; %d messages this node had read are not on it (acknowledged, then lost in a"
                + " failover); channels get new epochs before the next write", state.identity(), cursor, anchor, lost);
        cursor = anchor;
        horizon = Math.min(horizon, cursor);
        store.forgetEpochs();
        stats.lostInFailover(lost);
        return true;
    }

    private void startPending(Connection connection) throws SQLException {
        if (pending.isEmpty()) {
            return;
        }
        long newest = store.newestId(connection);
        if (subscribers.channelCount() == 0) {
            // Nobody needs the rows before the starting line: skip them instead of reading them.
            cursor = Math.max(cursor, newest);
        }
        PendingSubscription subscription;
        while ((subscription = pending.poll()) != null) {
            try {
                subscription.startAt(newest);
            } catch (RuntimeException | Error e) {
                // Taken off the queue, it would otherwise stay subscribed and never be confirmed (a start hook that
                // cannot start its history thread); the others still start.
                subscription.end(e);
                failures.record(Failure.POLL, "subscription-start", "Cable subscription to '" + subscription.channel()
                        + "' could not start: " + e, e);
            }
        }
    }
}
