package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.IntConsumer;

import javax.sql.DataSource;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.PresenceRecord;
import io.quarkiverse.cable.PresenceSnapshot;
import io.quarkiverse.cable.runtime.core.PresenceSettings;
import io.quarkiverse.cable.spi.CableThreads;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkiverse.cable.spi.Failure;
import io.quarkiverse.cable.spi.FailureLog;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkiverse.cable.spi.PresenceEnvelope;
import io.quarkiverse.cable.spi.PresenceStore;
import io.quarkiverse.cable.spi.TransportCounters;
import io.quarkiverse.cable.spi.Worker;

/**
 * The presence sets of the database adapter, shared by every node on the database.
 * <p>
 * A join or leave is one transaction: it locks the id's row in {@code cable_presence}, changes the id's sessions in
 * {@code cable_presence_sessions}, and, when the id was new or lost its last session, writes the join or leave to
 * {@code cable:presence} through the store (under the shard lock, like any broadcast), so every node reads each
 * change once and in the order of the id's changes; with {@code quarkus.cable.presence.in-stream} the same
 * transaction writes it to the channel's own stream too. A connected session costs no write after its join: its node
 * renews one lease ({@code cable_presence_nodes}) every TTL/2. When a session disconnects its rows get the end of the
 * TTL; when a node's lease runs out (it died) a surviving node gives its rows the end of the lease. Any node's reaper
 * then removes expired rows and writes the leaves. A node that finds its own lease gone (it was paused longer than
 * the TTL and others reaped it) joins its sessions again.
 * <p>
 * The work runs on virtual threads of its own, at most {@link #MAX_CONCURRENT} transactions at once: never inside
 * the caller's JTA transaction, and never taking more of the pool than the writer and the poller can spare. Each
 * COMMIT is bounded by {@code quarkus.cable.writer.commit-timeout}, as the writer's are: a commit waiting for a
 * synchronous standby that is away would otherwise hold a permit, and the connection whose command waits on it,
 * forever; after four such commits no presence command of the node would ever be answered.
 */
final class DatabasePresence implements PresenceStore {

    private static final Logger LOG = Logger.getLogger(DatabasePresence.class);
    private static final int MAX_CONCURRENT = 4;
    private static final int MAX_ATTEMPTS = 5;
    private static final int REAP_BATCH = 200;

    private final DataSource dataSource;
    private final MessageStore store;
    private final PresenceTable table;
    private final PresenceSettings settings;
    private final IntConsumer afterCommit;
    private final CommitDeadline commitDeadline;
    private final FailureLog failures;
    private final TransportCounters stats;
    /** Identifies this node's sessions and lease; new at every start. */
    private final String nodeId = UUID.randomUUID().toString();
    /** This node's connected memberships, per session: (channel, id) -> info (or "" for none). */
    private final Map<String, Map<Membership, String>> bySession = new ConcurrentHashMap<>();
    private final ExecutorService threads = CableThreads.virtualPerTask();
    private final Semaphore permits = new Semaphore(MAX_CONCURRENT);
    private final PresenceAdmission admission;
    private final Worker worker = new Worker("presence", this::run);
    private final Object leaseLock = new Object();
    private volatile Changes changes;
    private volatile boolean leased;
    private volatile boolean stopped;
    private long renewAtNanos;

    record Membership(String channel, String presenceId) {
    }

    @FunctionalInterface
    private interface Work<T> {
        T run(Connection connection, Instant now) throws SQLException;
    }

    /** A transaction's result, and the change it wrote an event for (null: none). */
    private record Outcome<T>(T value, Change change) {
    }

    /** A committed join, update or leave, and the message rows it wrote; {@code joined} is null for an update. */
    private record Change(String channel, String presenceId, Boolean joined, int rows) {
    }

    /** {@code afterCommit} gets the number of event rows each committed transaction wrote (wakes the poller). */
    public DatabasePresence(DataSource dataSource, MessageStore store, SqlDialect sql, PresenceSettings settings,
            CommitDeadline commitDeadline, TransportCounters stats, IntConsumer afterCommit) {
        this.dataSource = dataSource;
        this.commitDeadline = commitDeadline;
        this.store = store;
        this.table = new PresenceTable(sql);
        this.settings = settings;
        this.afterCommit = afterCommit;
        this.failures = new FailureLog(LOG, stats);
        this.stats = stats;
        this.admission = new PresenceAdmission(settings.maxPendingPerId(), settings.maxPending());
    }

    @Override
    public void changes(Changes changes) {
        this.changes = changes;
    }

    @Override
    public boolean join(String channel, String presenceId, String sessionId, String infoJson) {
        ensureLease();
        long hash = ChannelHash.of(channel);
        Membership membership = new Membership(channel, presenceId);
        admitChange(membership);
        try {
            // Remembered before the row can exist: the sweep takes a row of this node whose session it does not know
            // for an orphan, so a committed row's session must be known from before its commit until its end.
            remember(sessionId, channel, presenceId, infoJson);
            try {
                return transaction((c, now) -> joinIn(c, channel, hash, presenceId, sessionId, infoJson, now));
            } catch (CableException.CommitUnknown e) {
                throw e; // the row may be stored: it stays remembered, so that the session's end hands it to the TTL
            } catch (CableException e) {
                forget(sessionId, membership); // rolled back: nothing to hand over or re-join
                throw e;
            }
        } finally {
            admission.releaseChange(membership);
        }
    }

    @Override
    public boolean leave(String channel, String presenceId, String sessionId) {
        Membership membership = new Membership(channel, presenceId);
        admitChange(membership);
        try {
            forget(sessionId, membership);
            long hash = ChannelHash.of(channel);
            return transaction((c, now) -> leaveIn(c, hash, presenceId, sessionId));
        } finally {
            admission.releaseChange(membership);
        }
    }

    @Override
    public void disconnected(String sessionId) {
        Map<Membership, String> memberships = bySession.remove(sessionId);
        if (memberships == null || memberships.isEmpty() || stopped) {
            return; // most connections never join: they cost no presence write
        }
        Instant end = Instant.now().plus(settings.ttl());
        admission.enter();
        try {
            transaction((c, now) -> new Outcome<>(table.expireSession(c, sessionId, end), null));
        } finally {
            admission.release();
        }
        worker.wake();
    }

    @Override
    public PresenceSnapshot snapshot(String channel, int maxRecords) {
        long hash = ChannelHash.of(channel);
        return admittedRead(c -> {
            List<PresenceRecord> records = table.records(c, hash, maxRecords);
            int total = records.size() < maxRecords ? records.size() : table.count(c, hash);
            return new PresenceSnapshot(total, records);
        });
    }

    @Override
    public int count(String channel) {
        long hash = ChannelHash.of(channel);
        return admittedRead(c -> table.count(c, hash));
    }

    private void admitChange(Membership membership) {
        if (!admission.admitChange(membership)) {
            stats.presenceRefused();
            throw CableException.QueueFull.presence(settings.maxPendingPerId(), settings.maxPending());
        }
    }

    /** A read a client or the application asked for: refused when the node has its most presence work waiting. */
    private <T> T admittedRead(Work1<T> work) {
        if (!admission.admit()) {
            stats.presenceRefused();
            throw CableException.QueueFull.presence(settings.maxPendingPerId(), settings.maxPending());
        }
        try {
            return read(work);
        } finally {
            admission.release();
        }
    }

    @Override
    public void start(String suffix) {
        worker.start(suffix);
    }

    @Override
    public void stop() {
        stopped = true;
        worker.stop(10_000);
        if (leased) {
            // The clients of this node reconnect elsewhere and join again within the TTL: nobody sees them leave.
            Instant end = Instant.now().plus(settings.ttl());
            try {
                transaction((c, now) -> {
                    table.expireNode(c, nodeId, PresenceTable.utc(end));
                    table.deleteLease(c, nodeId);
                    return new Outcome<>(null, null);
                });
            } catch (CableException e) {
                LOG.debugf("Presence: this node's sessions could not be handed to the TTL at stop: %s", e.getMessage());
            }
        }
        // Not close(): it would wait for a transaction that is still running, and a stopping node must not.
        threads.shutdownNow();
        commitDeadline.close();
    }

    @Override
    public List<Worker> workers() {
        return List.of(worker);
    }

    private Outcome<Boolean> joinIn(Connection c, String channel, long hash, String presenceId, String sessionId,
            String infoJson, Instant now) throws SQLException {
        PresenceTable.Member before = table.member(c, hash, presenceId); // locks the id's row when it exists
        table.upsert(c, hash, channel, presenceId, infoJson, now); // locks it in any case
        PresenceTable.Sessions sessions = table.sessions(c, hash, presenceId, sessionId);
        if (sessions.mine()) {
            table.reviveSession(c, hash, presenceId, sessionId, nodeId);
        } else {
            table.addSession(c, hash, presenceId, sessionId, nodeId);
        }
        if (sessions.mine() || sessions.total() > 0) {
            // The id was in the set already: no join, but other info is an update every member hears.
            if (before == null || Objects.equals(before.info(), infoJson)) {
                return new Outcome<>(false, null);
            }
            int rows = writeEvent(c, PresenceEnvelope.updated(channel, presenceId, infoJson, settings.inStream(channel)),
                    now);
            return new Outcome<>(false, new Change(channel, presenceId, null, rows));
        }
        int rows = writeEvent(c, PresenceEnvelope.joined(channel, presenceId, infoJson, settings.inStream(channel)), now);
        return new Outcome<>(true, new Change(channel, presenceId, true, rows));
    }

    private Outcome<Boolean> leaveIn(Connection c, long hash, String presenceId, String sessionId) throws SQLException {
        String channel = table.lock(c, hash, presenceId);
        if (channel == null || table.removeSession(c, hash, presenceId, sessionId) == 0) {
            return new Outcome<>(false, null);
        }
        return removeIfLast(c, hash, channel, presenceId, Instant.now());
    }

    private Outcome<Boolean> reapIn(Connection c, PresenceTable.Key key, Instant now) throws SQLException {
        String channel = table.lock(c, key.channelHash(), key.presenceId());
        if (table.removeExpiredSessions(c, key.channelHash(), key.presenceId(), now) == 0 || channel == null) {
            return new Outcome<>(false, null); // another node reaped it first
        }
        return removeIfLast(c, key.channelHash(), channel, key.presenceId(), now);
    }

    private Outcome<Boolean> removeIfLast(Connection c, long hash, String channel, String presenceId, Instant now)
            throws SQLException {
        if (table.sessionCount(c, hash, presenceId) > 0) {
            return new Outcome<>(false, null);
        }
        table.remove(c, hash, presenceId);
        int rows = writeEvent(c, PresenceEnvelope.left(channel, presenceId, settings.inStream(channel)), now);
        return new Outcome<>(true, new Change(channel, presenceId, false, rows));
    }

    /** Writes a change's messages under the shard lock, like any broadcast; returns how many. */
    private int writeEvent(Connection c, List<OutgoingMessage> messages, Instant now) throws SQLException {
        store.writeInTransaction(c, messages, now);
        return messages.size();
    }

    private void remember(String sessionId, String channel, String presenceId, String infoJson) {
        bySession.computeIfAbsent(sessionId, ignored -> new ConcurrentHashMap<>())
                .put(new Membership(channel, presenceId), infoJson == null ? "" : infoJson);
    }

    private void forget(String sessionId, Membership membership) {
        bySession.computeIfPresent(sessionId, (ignored, memberships) -> {
            memberships.remove(membership);
            return memberships.isEmpty() ? null : memberships;
        });
    }

    /** The node's lease exists before its first session row does, so no survivor takes that row for a dead node's. */
    private void ensureLease() {
        if (leased) {
            return;
        }
        synchronized (leaseLock) {
            if (!leased) {
                renewLease();
            }
        }
    }

    /** Renews the lease; a lease found gone while this node held one means others reaped this node's sessions. */
    private void renewLease() {
        Instant until = Instant.now().plus(settings.ttl());
        boolean existed = transaction((c, now) -> new Outcome<>(table.renewLease(c, nodeId, until), null));
        boolean lost = leased && !existed;
        leased = true;
        renewAtNanos = System.nanoTime() + settings.leaseRenewalNanos();
        if (lost) {
            LOG.warnf("Presence: this node's lease ran out (was it paused for longer than quarkus.cable.presence.ttl,"
                    + " %s?) and other nodes ended its sessions; joining them again", settings.ttl());
            bySession.forEach((sessionId, memberships) -> memberships.forEach((membership, info) -> transaction(
                    (c, now) -> joinIn(c, membership.channel(), ChannelHash.of(membership.channel()),
                            membership.presenceId(), sessionId, info.isEmpty() ? null : info, now))));
        }
    }

    private void run() {
        while (worker.running()) {
            worker.idle(settings.reapIntervalNanos());
            if (!worker.running()) {
                return;
            }
            try {
                if (leased && System.nanoTime() - renewAtNanos >= 0) {
                    synchronized (leaseLock) {
                        renewLease();
                    }
                    sweepOrphans();
                }
                reapLapsedLeases();
                reapExpired();
            } catch (RuntimeException e) {
                failures.record(Failure.STORAGE, "presence", "Presence upkeep failed (retried): " + e, null);
            }
        }
    }

    /**
     * Hands to the TTL this node's sessions that are connected in the database but unknown here (no live connection
     * ended them: a defect of some front end's ordering): so no such defect can keep an id in a set for longer than
     * the TTL plus one lease renewal. A session is known from before its join's transaction until its end, and the
     * check is made again inside the transaction that expires it, so a session joining meanwhile is never touched.
     */
    private void sweepOrphans() {
        List<String> connected = read(c -> table.connectedSessions(c, nodeId));
        int swept = 0;
        for (String sessionId : connected) {
            if (bySession.containsKey(sessionId)) {
                continue;
            }
            Instant end = Instant.now().plus(settings.ttl());
            int rows = transaction((c, now) -> {
                int expired = table.expireSession(c, sessionId, end);
                if (bySession.containsKey(sessionId)) {
                    c.rollback(); // it joined since the read: it is live
                    return new Outcome<>(0, null);
                }
                return new Outcome<>(expired, null);
            });
            if (rows > 0) {
                swept++;
            }
        }
        if (swept > 0) {
            stats.presenceSessionsSwept(swept);
            LOG.warnf("Presence: %d session(s) of this node were connected in the database without a live connection;"
                    + " handed to the TTL (quarkus.cable.presence.ttl, %s)", swept, settings.ttl());
        }
    }

    /** Hands the sessions of nodes whose lease ran out (they died) to the TTL: they end at the lease's end. */
    private void reapLapsedLeases() {
        List<PresenceTable.Lease> lapsed = read(c -> table.lapsedLeases(c, Instant.now()));
        for (PresenceTable.Lease lease : lapsed) {
            if (lease.nodeId().equals(nodeId)) {
                continue; // our own renewal is late, not missing
            }
            transaction((c, now) -> {
                table.expireNode(c, lease.nodeId(), lease.until());
                table.deleteLease(c, lease.nodeId());
                return new Outcome<>(null, null);
            });
            LOG.infof("Presence: node %s stopped renewing its lease; its sessions end with it", lease.nodeId());
        }
    }

    private void reapExpired() {
        List<PresenceTable.Key> keys;
        do {
            keys = read(c -> table.expired(c, Instant.now(), REAP_BATCH));
            for (PresenceTable.Key key : keys) {
                transaction((c, now) -> reapIn(c, key, now));
            }
        } while (keys.size() == REAP_BATCH && worker.running());
    }

    /** Runs {@code work} in a transaction of its own (retried when it lost a conflict) and returns its value. */
    private <T> T transaction(Work<Outcome<T>> work) {
        return onPresenceThread(() -> {
            SQLException last = null;
            for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
                try (Connection c = dataSource.getConnection()) {
                    boolean autoCommit = c.getAutoCommit();
                    c.setAutoCommit(false);
                    try {
                        Outcome<T> outcome = work.run(c, Instant.now());
                        commit(c);
                        Change change = outcome.change();
                        if (change != null) {
                            afterCommit.accept(change.rows());
                            Changes listener = changes;
                            if (listener != null && change.joined() != null) {
                                listener.changed(change.channel(), change.presenceId(), change.joined());
                            }
                        }
                        return outcome.value();
                    } catch (SQLException e) {
                        c.rollback();
                        throw e;
                    } finally {
                        if (!c.isClosed()) { // aborted after an overrun commit: nothing to restore
                            c.setAutoCommit(autoCommit);
                        }
                    }
                } catch (SQLException e) {
                    last = e;
                    if (!retryable(e)) {
                        break;
                    }
                    Thread.sleep(attempt * 10L);
                }
            }
            throw new CableException.StorageFailed("Cable presence could not be stored", last);
        });
    }

    /**
     * Commits under the deadline. When it fires first the outcome is unknown (PostgreSQL keeps a cancelled
     * synchronous commit locally): the change and its event may be stored, so the caller is told
     * {@link CableException.CommitUnknown}, never retried, and the connection, which the cancel may still reach,
     * is aborted so that the pool never lends it out again.
     */
    private void commit(Connection c) throws SQLException {
        try {
            commitDeadline.commit(c);
        } catch (CommitDeadline.Overran e) {
            throw new CableException.CommitUnknown("A presence change did not commit within"
                    + " quarkus.cable.writer.commit-timeout; it may or may not be stored", e.getCause());
        }
    }

    private <T> T read(Work1<T> work) {
        return onPresenceThread(() -> {
            try (Connection c = dataSource.getConnection()) {
                return work.run(c);
            } catch (SQLException e) {
                throw new CableException.StorageFailed("Cable presence could not be read", e);
            }
        });
    }

    @FunctionalInterface
    private interface Work1<T> {
        T run(Connection connection) throws SQLException;
    }

    @FunctionalInterface
    private interface Task<T> {
        T call() throws InterruptedException;
    }

    private <T> T onPresenceThread(Task<T> task) {
        Future<T> result = threads.submit(() -> {
            permits.acquire();
            try {
                return task.call();
            } finally {
                permits.release();
            }
        });
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CableException.StorageFailed("Interrupted while waiting for presence", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CableException cable) {
                throw cable;
            }
            throw new CableException.StorageFailed("Cable presence failed", e.getCause());
        }
    }

    /** Lost a conflict (deadlock, serialization, Galera certification) or raced another join of a new id. */
    private boolean retryable(SQLException e) {
        String state = e.getSQLState();
        return store.lostConflict(e) || (state != null && (state.startsWith("23") || state.startsWith("40")));
    }
}
