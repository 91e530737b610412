package io.quarkiverse.cable;

/**
 * Why a broadcast was not stored, or why a subscription ended. Each kind is its own subclass so callers can react
 * (retry later on {@link QueueFull}, fix the call on {@link InvalidMessage}).
 */
public abstract sealed class CableException extends RuntimeException {

    private CableException(String message, Throwable cause) {
        super(message, cause);
    }

    /** An exception without a stack trace, for a refusal a flood makes by the thousand; its message says it all. */
    private CableException(String message) {
        super(message, null, true, false);
    }

    /**
     * The writer queue is at capacity ({@code quarkus.cable.writer.queue-capacity}), or the broadcast's channel already
     * holds its share of it ({@code quarkus.cable.writer.max-queued-per-channel}); nothing was queued. It has no stack
     * trace: under a flood one is made per refused broadcast (about 100,000 in issue 45's writer flood), and walking
     * the stack for each cost more than refusing; the message names the bound and its setting.
     */
    public static final class QueueFull extends CableException {
        public QueueFull(int capacity) {
            this("Cable writer queue is full (" + capacity + " broadcasts waiting, see quarkus.cable.writer.queue-capacity)");
        }

        private QueueFull(String message) {
            super(message);
        }

        /** The caller's transaction made {@code max} broadcasts already, its most; the writer queue is not involved. */
        public static QueueFull transactionLimit(int max) {
            return new QueueFull("Cable broadcast refused: this transaction made its most broadcasts (" + max
                    + ", see quarkus.cable.writer.max-transaction-broadcasts); the transaction is rolled back");
        }

        /**
         * A presence change or read refused: the presence id has {@code perId} changes waiting for the database on
         * this node, or the node has {@code total} presence operations waiting; nothing was remembered or written.
         */
        public static QueueFull presence(int perId, int total) {
            return new QueueFull("Cable presence is busy: this id has " + perId + " changes waiting or this node "
                    + total + " presence operations (see quarkus.cable.presence.max-pending-per-id and max-pending)");
        }

        /**
         * A presence join refused: the connection was joined to {@code channel}'s presence more than
         * {@code perSecond} times a second on average (bursts of five seconds' worth); its membership is unchanged.
         */
        public static QueueFull presenceChanges(String channel, int perSecond) {
            return new QueueFull("Cable presence join refused on '" + channel + "': this connection joined it more"
                    + " than " + perSecond + " times a second (see quarkus.cable.presence.changes-per-second)");
        }

        /** The channel has {@code share} broadcasts waiting already, its most; the queue may have room for others. */
        public static QueueFull channelShare(int share) {
            return new QueueFull("Cable writer queue holds this channel's share (" + share
                    + " of its broadcasts waiting, see quarkus.cable.writer.max-queued-per-channel)");
        }
    }

    /** The cable is stopped (application shutting down) and accepts no more broadcasts. */
    public static final class Stopped extends CableException {
        public Stopped() {
            super("Cable is stopped", null);
        }
    }

    /**
     * The database did not store the broadcast within the writer's retry window, or refused its row (a data or
     * constraint error, SQLState class 22 or 23: failed at once, never retried, and only that broadcast of its
     * batch); nobody receives it.
     */
    public static final class StorageFailed extends CableException {
        public StorageFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The connection to the database broke while the broadcast's batch was being committed, and the database did not
     * come back within the writer's retry window to say whether that commit happened. The broadcast may have been
     * stored: if it was, subscribers receive it like any other (once, in order); if it was not, nobody does. Unlike
     * {@link StorageFailed}, a retry by the caller may therefore deliver it twice.
     */
    public static final class CommitUnknown extends CableException {
        public CommitUnknown(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The transaction the broadcast joined rolled back (or was already marked for rollback); nobody receives it. When
     * storing the broadcasts is what failed the transaction, that failure is the cause.
     */
    public static final class RolledBack extends CableException {
        public RolledBack(int broadcasts, Throwable cause) {
            super("The transaction holding " + broadcasts + " broadcast" + (broadcasts == 1 ? "" : "s")
                    + " rolled back; nobody receives " + (broadcasts == 1 ? "it" : "them"), cause);
        }
    }

    /**
     * The channel name or payload is null, empty or over its configured limit, a broadcast's channel name holds a NUL
     * character or a lone UTF-16 surrogate, or the payload object cannot be written as JSON. Outside a transaction it is the
     * broadcast's failed stage; inside a transaction the broadcast would
     * join, it is thrown at the call and the transaction is marked rollback-only.
     */
    public static final class InvalidMessage extends CableException {
        public InvalidMessage(String message) {
            super(message, null);
        }
    }

    /**
     * The application's {@link StreamAuthorization} refused the stream (or failed while deciding), so it never
     * started; {@link CableStreams#start} fails its {@code Uni} with it. The message names the channel, nothing of why.
     */
    public static final class Forbidden extends CableException {
        public Forbidden(String channel) {
            super("Stream of '" + channel + "' refused by the application's StreamAuthorization", null);
        }
    }

    /** An in-JVM listener fell more than {@code quarkus.cable.subscriber-buffer} messages behind. */
    public static final class SlowConsumer extends CableException {
        public SlowConsumer(String channel, int limit) {
            super("Subscription to '" + channel + "' closed: its listener fell more than " + limit
                    + " messages behind (quarkus.cable.subscriber-buffer)", null);
        }

        /** A subscription closed as too slow for another reason than its message count ({@code why}). */
        public SlowConsumer(String channel, String why) {
            super("Subscription to '" + channel + "' closed: its client is too slow, " + why, null);
        }
    }

    /**
     * The history a subscriber asked for (the messages after a {@link StreamPosition}) is not all there any more, so
     * nothing of it was replayed. The subscriber must reload its state from its source of truth, then subscribe
     * without a position (or with a fresh one).
     */
    public static final class HistoryUnavailable extends CableException {

        /** Why the history cannot be replayed completely. */
        public enum Reason {
            /** The channel's epoch is not the one of the position: its history was lost or reset. */
            EPOCH_CHANGED,
            /** The channel has no stored history at all (never written, or its row was deleted). */
            UNKNOWN_STREAM,
            /** The position is above the channel's newest message: it never existed in this epoch. */
            OFFSET_BEYOND_NEWEST,
            /** Some of the messages after the position were trimmed (older than the history window). */
            TRIMMED,
            /** More messages were missed than {@code quarkus.cable.history.max-replay} allows to replay. */
            TOO_LARGE,
            /**
             * This node is reading as many histories as {@code quarkus.cable.history.max-concurrent-replays} allows and
             * as many more wait as {@code quarkus.cable.history.max-queued-replays} allows, or this one waited longer
             * than {@code quarkus.cable.history.queue-timeout}: nothing is replayed, the subscription stays live.
             */
            BUSY,
            /**
             * The connection already has {@code quarkus.cable.history.max-replays-per-connection} history steps in
             * flight: nothing is replayed, the subscription stays live.
             */
            CONNECTION_LIMIT
        }

        private final Reason reason;

        public HistoryUnavailable(String channel, StreamPosition after, Reason reason, String detail) {
            super("History of '" + channel + "' after " + after.epoch() + "/" + after.offset() + " is unavailable ("
                    + reason.name().toLowerCase(java.util.Locale.ROOT) + "): " + detail, null);
            this.reason = reason;
        }

        public Reason reason() {
            return reason;
        }
    }
}
