package io.quarkiverse.cable.runtime.core;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.spi.Failure;
import io.quarkiverse.cable.spi.TransportCounters;

/**
 * Counters of one cable, updated on the data path without locks. Health checks and metrics read them; only the data
 * path's components record into them, through the methods below; what an adapter records is documented on
 * {@link TransportCounters}.
 */
public final class CableStats implements TransportCounters {

    /**
     * Why a client was refused by a bound of what it may make the server hold or do (the Security page lists each
     * with its setting and answer); counted as {@code cable.limits.refusals} by reason.
     */
    public enum Refusal {
        /** A frame would take a connection's pending outbound bytes over websocket.max-pending-bytes. */
        PENDING_BYTES,
        /** A connection's pending outbound frames over websocket.max-pending-frames. */
        PENDING_FRAMES,
        /** A connection's writes made no progress for websocket.stall-timeout while frames waited. */
        STALLED,
        /** A subscription identifier over limits.max-identifier-size. */
        IDENTIFIER_SIZE,
        /** A subscribe beyond limits.max-subscriptions. */
        SUBSCRIPTIONS,
        /**
         * A command over action-cable.max-command-size, in one frame or in fragments, or a single frame over the
         * server's WebSocket frame size: closed with 1009.
         */
        COMMAND_SIZE,
        /** A binary frame to Action Cable, a text protocol: closed with 1003 (unsupported data), the rest dropped. */
        UNSUPPORTED_DATA,
        /** Commands waiting to be handled over limits.max-queued-commands or limits.max-queued-command-bytes. */
        COMMAND_QUEUE,
        /** Commands faster than limits.command-rate (with limits.command-burst). */
        COMMAND_RATE,
        /** Whispers faster than limits.whisper-rate (with limits.whisper-burst): dropped, the connection stays. */
        WHISPER_RATE,
        /** A whisper's data over limits.max-whisper-size: dropped, the connection stays. */
        WHISPER_SIZE,
        /** Presence work over presence.max-pending-per-id or presence.max-pending: refused, nothing stored. */
        PRESENCE_QUEUE,
        /**
         * Presence info answers over a connection's presence.info-bytes-per-second: answered with the presence error
         * frame, nothing read.
         */
        PRESENCE_INFO_BYTES,
        /**
         * WebSocket pings faster than websocket.max-pings-per-second, or that many while the connection's writes are
         * backed up: each ping makes the server queue a pong, so the connection is closed (1008) and its socket
         * released.
         */
        PING_RATE,
        /**
         * WebSocket pongs faster than websocket.max-pongs-per-second: each costs the event loop its decoding and
         * dispatch for nothing, so the connection is closed (1008) and its socket released.
         */
        PONG_RATE,
        /**
         * Presence joins and leaves on one Action Cable subscription faster than presence.changes-per-second: answered
         * with the presence error frame, nothing changed.
         */
        PRESENCE_RATE,
        /**
         * An HTTP publish request from an address that presented http-broadcast.max-wrong-secrets wrong secrets in its
         * http-broadcast.wrong-secret-window: answered 429 without its secret being compared.
         */
        WRONG_SECRETS,
        /**
         * An SSE request from a client (its principal, or its address when anonymous) that already has
         * sse.max-streams-per-client streams open: answered 429 before anything is sent.
         */
        STREAMS_PER_CLIENT;

        /** The metric tag and log key. */
        public String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * Receives timings from the data path. The Micrometer binding installs one when Micrometer is present; the
     * default does nothing, so the data path never touches a metrics library.
     */
    public interface Observer {
        Observer NONE = new Observer() {
        };

        /** One poll that ran a query: how long it took (borrowing the connection included) and how many rows. */
        default void polled(long durationNanos, int rows) {
        }

        /** One polled row: milliseconds from its write (created_at) to its hand-off to local subscribers. */
        default void pollLag(long lagMillis) {
        }

        /** One committed writer batch of {@code size} broadcasts. */
        default void batchCommitted(int size) {
        }
    }

    private final LongAdder broadcasts = new LongAdder();
    private final LongAdder committed = new LongAdder();
    private final LongAdder batches = new LongAdder();
    private final LongAdder transactionalBroadcasts = new LongAdder();
    private final LongAdder afterCommitBroadcasts = new LongAdder();
    private final LongAdder polls = new LongAdder();
    private final LongAdder pollsWithRows = new LongAdder();
    private final LongAdder conflictRetries = new LongAdder();
    private final LongAdder deliveries = new LongAdder();
    private final LongAdder rowsTrimmed = new LongAdder();
    private final Map<Failure, LongAdder> failures = new EnumMap<>(Failure.class);
    private final LongAdder replaysServed = new LongAdder();
    private final LongAdder messagesReplayed = new LongAdder();
    private final LongAdder replayFailures = new LongAdder();
    private final LongAdder historyReads = new LongAdder();
    private final LongAdder replaysCoalesced = new LongAdder();
    private final LongAdder replaysOverBudget = new LongAdder();
    private final LongAdder sseSlowConsumers = new LongAdder();
    private final LongAdder sseMaxDurationEnds = new LongAdder();
    private final LongAdder disconnectCommands = new LongAdder();
    private final LongAdder remotelyDisconnected = new LongAdder();
    private final LongAdder identityChanges = new LongAdder();
    private final LongAdder lostInFailover = new LongAdder();
    private final LongAdder presenceSessionsSwept = new LongAdder();
    private final LongAdder closedUnresponsive = new LongAdder();
    private final Map<CableException.HistoryUnavailable.Reason, LongAdder> replaysRejected = new EnumMap<>(
            CableException.HistoryUnavailable.Reason.class);
    private volatile Observer observer = Observer.NONE;
    private volatile long lastPollLagMillis;
    private volatile long lastPollDurationNanos;

    public CableStats() {
        for (Failure failure : Failure.values()) {
            failures.put(failure, new LongAdder());
        }
        for (CableException.HistoryUnavailable.Reason reason : CableException.HistoryUnavailable.Reason.values()) {
            replaysRejected.put(reason, new LongAdder());
        }
    }

    private final Map<Refusal, LongAdder> refusals = new EnumMap<>(Refusal.class);

    {
        for (Refusal refusal : Refusal.values()) {
            refusals.put(refusal, new LongAdder());
        }
    }

    /** A client refused by one of the bounds of what it may make the server hold or do. */
    public void refused(Refusal reason) {
        refusals.get(reason).increment();
    }

    public long refusals(Refusal reason) {
        return refusals.get(reason).sum();
    }

    /** A recovery whose whole history ({@code messages} of them, maybe none) was replayed. */
    public void replayServed(int messages) {
        replaysServed.increment();
        messagesReplayed.add(messages);
    }

    /** A recovery refused because its history was not all there. */
    public void replayRejected(CableException.HistoryUnavailable.Reason reason) {
        replaysRejected.get(reason).increment();
    }

    /**
     * A client's replay refused because the node's replay budget was full (history.max-replay-bytes-in-flight or
     * max-replays-in-flight); also counted as rejected with reason {@code BUSY}.
     */
    public void replayOverBudget() {
        replaysOverBudget.increment();
    }

    public long replaysOverBudget() {
        return replaysOverBudget.sum();
    }

    /** A recovery whose history could not be read (database failure). */
    public void replayFailed() {
        replayFailures.increment();
    }

    public long replaysServed() {
        return replaysServed.sum();
    }

    public long messagesReplayed() {
        return messagesReplayed.sum();
    }

    @Override
    public void historyRead() {
        historyReads.increment();
    }

    @Override
    public void replayCoalesced() {
        replaysCoalesced.increment();
    }

    /** An SSE stream closed as too slow (pending bytes over the bound, or stalled). */
    public void sseSlowConsumer() {
        sseSlowConsumers.increment();
    }

    public void sseMaxDurationEnd() {
        sseMaxDurationEnds.increment();
    }

    public long historyReads() {
        return historyReads.sum();
    }

    /** A remote disconnect command applied on this node, closing {@code sessions} of its sessions. */
    public void disconnectCommandApplied(int sessions) {
        disconnectCommands.increment();
        remotelyDisconnected.add(sessions);
    }

    public long disconnectCommands() {
        return disconnectCommands.sum();
    }

    public long remotelyDisconnected() {
        return remotelyDisconnected.sum();
    }

    public long replaysCoalesced() {
        return replaysCoalesced.sum();
    }

    @Override
    public void databaseIdentityChanged() {
        identityChanges.increment();
    }

    @Override
    public void lostInFailover(long lost) {
        lostInFailover.add(lost);
    }

    @Override
    public void presenceRefused() {
        refused(Refusal.PRESENCE_QUEUE);
    }

    @Override
    public void presenceSessionsSwept(int sessions) {
        presenceSessionsSwept.add(sessions);
    }

    /** A WebSocket connection closed because it answered no ping within the pong timeout. */
    public void connectionUnresponsive() {
        closedUnresponsive.increment();
    }

    public long unresponsiveConnections() {
        return closedUnresponsive.sum();
    }

    public long presenceSessionsSwept() {
        return presenceSessionsSwept.sum();
    }

    public long databaseIdentityChanges() {
        return identityChanges.sum();
    }

    public long messagesLostInFailover() {
        return lostInFailover.sum();
    }

    public long sseSlowConsumers() {
        return sseSlowConsumers.sum();
    }

    /** SSE streams the cable ended because they lasted {@code sse.max-stream-duration}. */
    public long sseMaxDurationEnds() {
        return sseMaxDurationEnds.sum();
    }

    public long replayFailures() {
        return replayFailures.sum();
    }

    public long replaysRejected(CableException.HistoryUnavailable.Reason reason) {
        return replaysRejected.get(reason).sum();
    }

    /** Where timings go from now on; set at startup by the metrics binding. */
    public void observe(Observer observer) {
        this.observer = observer;
    }

    public void broadcastAccepted() {
        broadcasts.increment();
    }

    @Override
    public void batchCommitted(int size) {
        batches.increment();
        committed.add(size);
        observer.batchCommitted(size);
    }

    /** {@code size} broadcasts committed with an application's transaction, on its connection. */
    public void committedInTransaction(int size) {
        transactionalBroadcasts.add(size);
        committed.add(size);
    }

    /**
     * {@code size} broadcasts of a transaction that did not use the cable's datasource, handed to the transport after
     * its commit (not atomic with it).
     */
    public void sentAfterCommit(int size) {
        afterCommitBroadcasts.add(size);
    }

    @Override
    public void committedInMemory() {
        committed.increment();
    }

    @Override
    public void polled(long durationNanos, int rows) {
        polls.increment();
        if (rows > 0) {
            pollsWithRows.increment();
        }
        lastPollDurationNanos = durationNanos;
        observer.polled(durationNanos, rows);
    }

    @Override
    public void pollLag(long lagMillis) {
        observer.pollLag(lagMillis);
    }

    @Override
    public void lastPollLag(long maxLagMillis) {
        lastPollLagMillis = maxLagMillis;
    }

    @Override
    public void delivered(int subscribers) {
        deliveries.add(subscribers);
    }

    @Override
    public void trimmed(int rows) {
        rowsTrimmed.add(rows);
    }

    @Override
    public void failed(Failure failure) {
        failures.get(failure).increment();
    }

    public long broadcasts() {
        return broadcasts.sum();
    }

    public long committed() {
        return committed.sum();
    }

    public long batches() {
        return batches.sum();
    }

    /** Broadcasts committed with an application's transaction. */
    public long transactionalBroadcasts() {
        return transactionalBroadcasts.sum();
    }

    /** Broadcasts of transactions that did not use the cable's datasource, sent after their commit. */
    public long afterCommitBroadcasts() {
        return afterCommitBroadcasts.sum();
    }

    @Override
    public long pollsWithRows() {
        return pollsWithRows.sum();
    }

    @Override
    public void conflictRetried() {
        conflictRetries.increment();
    }

    public long conflictRetries() {
        return conflictRetries.sum();
    }

    public long polls() {
        return polls.sum();
    }

    public long deliveries() {
        return deliveries.sum();
    }

    public long rowsTrimmed() {
        return rowsTrimmed.sum();
    }

    public long failures(Failure failure) {
        return failures.get(failure).sum();
    }

    /** The largest write-to-hand-off lag of the rows of the last poll, in milliseconds; 0 after an empty poll. */
    public long lastPollLagMillis() {
        return lastPollLagMillis;
    }

    /** How long the last poll that ran a query took, in nanoseconds. */
    public long lastPollDurationNanos() {
        return lastPollDurationNanos;
    }
}
