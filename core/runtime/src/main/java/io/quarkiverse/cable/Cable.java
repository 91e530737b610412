package io.quarkiverse.cable;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Cross-process publish/subscribe through the application's database.
 * <p>
 * A broadcast on one node reaches every subscriber of its channel on every node that shares the database, exactly
 * once and in per-channel broadcast order. Inject it with {@code @Inject Cable cable}; {@link MutinyCable} offers the
 * same as {@code Uni} and {@code Multi}.
 * <p>
 * <b>Transactions.</b> A broadcast made inside an active JTA transaction ({@code @Transactional}, Panache) joins it:
 * it is delivered if and only if the transaction commits, never before the commit, and its stage completes after the
 * commit. When the transaction wrote to the cable's datasource, the broadcast is stored on the transaction's own
 * connection and commits atomically with the application's data (nothing is lost if the process dies right after
 * the commit). A transaction that did not use the cable's datasource has its broadcasts sent after its commit, not
 * atomically with it. Blocking on the stage inside the transaction throws {@link IllegalStateException} (it would
 * deadlock). {@link #withoutTransaction()} broadcasts at once instead; {@code quarkus.cable.transactional=false}
 * turns joining off for the whole application.
 * <p>
 * A broadcast that cannot join the transaction never lets it commit without it: one refused before queueing (an
 * invalid channel, a {@code null}, over-size or unwritable payload: {@link CableException.InvalidMessage}; more than
 * {@code quarkus.cable.writer.queue-capacity} in one transaction: {@link CableException.QueueFull}) is thrown at
 * the call and marks the transaction rollback-only; one the database refuses at commit rolls the transaction back
 * (the stage fails with {@link CableException.RolledBack}, the refusal as its cause).
 */
public interface Cable {

    /**
     * Broadcasts a text payload to every subscriber of {@code channel}, on every node.
     * <p>
     * Never blocks: the message is queued for the writer, and the returned stage completes once it is committed (so
     * every subscriber confirmed before that moment will receive it). It fails with a {@link CableException} when the
     * message was not stored: {@link CableException.QueueFull}, {@link CableException.Stopped},
     * {@link CableException.StorageFailed} or {@link CableException.InvalidMessage}; or with
     * {@link CableException.CommitUnknown} when the connection broke during the commit and the outcome could not be
     * learned (the message may then have been stored and delivered). A failure the caller ignores is still logged and
     * counted. Inside a transaction, see the class documentation: an invalid broadcast is thrown there, not returned
     * as a failed stage, and a rollback fails the stage with {@link CableException.RolledBack}.
     */
    CompletionStage<Void> broadcast(String channel, String payload);

    /** Broadcasts a binary payload; subscribers see {@link CableMessage#binary()} {@code true}. */
    CompletionStage<Void> broadcast(String channel, byte[] payload);

    /**
     * Broadcasts an object as JSON text, encoded once with the application's Jackson {@code ObjectMapper} (a
     * {@code String} is sent as text and a {@code byte[]} as binary, as by the other overloads). An object Jackson
     * cannot write fails the stage with {@link CableException.InvalidMessage}.
     */
    default CompletionStage<Void> broadcast(String channel, Object payload) {
        // The extension's Cable encodes objects itself; this default serves other implementations (test doubles).
        if (payload instanceof byte[] bytes) {
            return broadcast(channel, bytes);
        }
        return broadcast(channel, payload == null ? null : payload.toString());
    }

    /**
     * This cable, except that its broadcasts never join the caller's transaction: they are written at once (and
     * visible to subscribers before the transaction ends, even if it then rolls back). For progress messages of a
     * long transaction, or a stage the caller must wait for inside it.
     */
    default Cable withoutTransaction() {
        return this;
    }

    /**
     * This cable, except that its broadcasts are not delivered to client session {@code sessionId}, on any node: the
     * "to others" broadcast (Rails' {@code broadcast_to_others}, AnyCable's {@code exclude_socket}), so the client
     * that made a change does not get its own echo. The session id is the one the client knows: an Action Cable
     * connection's {@code sid} (its welcome message; {@link ChannelSubscription#sessionId()} in a channel, the
     * {@code X-Socket-ID} header its HTTP requests carry), a WebSockets Next connection's {@code connection.id()}.
     * Every other subscriber gets the broadcast, and it stays in the channel's history (a replay after a reconnect
     * includes it, as in AnyCable). {@code null} excludes nobody (this cable), so a header that may be absent is
     * passed as it is. An id that is empty or over 255 bytes, or a binary payload, is refused as
     * {@link CableException.InvalidMessage} (a binary payload has no room for the session).
     */
    default Cable excluding(String sessionId) {
        if (sessionId == null) {
            return this;
        }
        throw new UnsupportedOperationException("This Cable cannot exclude a session");
    }

    /**
     * Subscribes an in-JVM listener to {@code channel}.
     * <p>
     * The subscription's starting line is the newest message id at the time it is recorded;
     * {@link Subscription#confirmed()} completes after that. Every broadcast committed after confirmation is
     * delivered, nothing committed before the starting line is. The listener is called on a virtual thread, one
     * message at a time, in per-channel order. A {@code null} listener throws {@link NullPointerException}.
     */
    Subscription subscribe(String channel, CableListener listener);

    /**
     * Subscribes an in-JVM listener to {@code channel} and first replays what it missed: every message committed after
     * {@code after} (a position taken from a delivered message, {@link CableMessage#streamPosition()}).
     * <p>
     * The listener receives the missed messages in position order, then the live ones, with no gap, no duplicate and
     * no reordering between the two, however many nodes broadcast meanwhile: the subscription's starting line is
     * recorded first and the replay ends exactly there. {@link Subscription#confirmed()} completes once the replay is
     * read and handed to the listener's queue.
     * <p>
     * When that history is not all there any more (trimmed, its epoch changed, the position never existed, or more
     * than {@code quarkus.cable.history.max-replay} messages were missed), nothing is replayed and the subscription
     * ends: {@code confirmed()} and {@code closed()} fail with {@link CableException.HistoryUnavailable}, which tells
     * the reason. The caller then reloads its state and subscribes afresh.
     */
    Subscription subscribe(String channel, StreamPosition after, CableListener listener);

    /**
     * The page cursor: {@code channel}'s newest committed position as the caller's transaction sees it, for a page
     * that renders data and then subscribes, so its client starts exactly after what was rendered
     * ({@link #subscribe(String, Optional, CableListener)}, {@code TurboStreams.streamSourceTag(Optional, String...)},
     * {@code CableEventStream.cursor(Optional)}); empty when the channel has no stored message yet (the client then
     * starts from the channel's first message).
     * <p>
     * It is read on the cable's datasource with a plain SELECT: inside a JTA transaction on that datasource, on the
     * transaction's own connection. It agrees exactly with the data the transaction reads when both come from one
     * snapshot and the data's changes were broadcast in their own transactions (transactional broadcasts): on
     * PostgreSQL and H2 a {@code REPEATABLE READ} (H2: {@code SNAPSHOT}) transaction, on MySQL/MariaDB InnoDB's default
     * {@code REPEATABLE READ} with plain reads. At {@code READ COMMITTED}, read the cursor <i>first</i>: then nothing is
     * lost, but a change committed between the two reads is both rendered and replayed. Blocking: never call it on an
     * event loop. On the memory adapter it is this process's current position.
     *
     * @throws CableException.StorageFailed when the position could not be read
     */
    default Optional<StreamPosition> position(String channel) {
        throw new UnsupportedOperationException("This Cable has no positions");
    }

    /**
     * {@link #subscribe(String, StreamPosition, CableListener)} from a page cursor ({@link #position(String)}): after
     * the position when there is one, else from the channel's first message (complete as long as the channel's first
     * message is still stored).
     */
    default Subscription subscribe(String channel, Optional<StreamPosition> cursor, CableListener listener) {
        return subscribe(channel, cursor.orElseThrow(() -> new UnsupportedOperationException(
                "This Cable cannot subscribe from a channel's start")), listener);
    }

    /** Which adapter carries the broadcasts: {@code database} or {@code memory}. */
    String adapter();
}
