package io.quarkiverse.cable;

import java.util.Set;

import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

/**
 * Starts and stops cable channels on WebSocket connections at run time (Action Cable's {@code stream_from} and
 * {@code stop_stream_from}), for example from {@code @OnOpen} or {@code @OnTextMessage} handlers. Streams of a
 * connection stop by themselves when it closes. It also puts connections into presence sets
 * ({@link #joinPresence}). Inject it with {@code @Inject CableStreams streams}.
 * <p>
 * Results are {@code Uni}s, as WebSockets Next callbacks return them ({@code @OnOpen Uni<Void> open(...)} may return
 * {@code streams.start(...)} as it is). Unlike {@link MutinyCable}'s, these are not lazy: the operation starts at the
 * call, whether or not the {@code Uni} is subscribed, and the {@code Uni} reports its outcome (every subscriber sees
 * the same one). A {@code CompletionStage} is one {@code subscribeAsCompletionStage()} away. The {@code Uni}
 * completes on the caller's Vert.x context (when called on one), never on the cable's poller.
 */
public interface CableStreams {

    /**
     * Streams {@code channel} to {@code connection}: every broadcast on it is written to the connection as it is, encoded
     * once per node for all its connections. Completes once the stream is live (its starting line is recorded);
     * fails with {@link CableException.InvalidMessage} for a bad channel name or a closed connection (the {@code Uni}
     * fails; the call does not throw, except {@link NullPointerException} for a {@code null} connection). Starting a channel
     * the connection already streams does nothing more.
     */
    Uni<Void> start(WebSocketConnection connection, String channel);

    /** Like {@link #start(WebSocketConnection, String)}, but each broadcast goes through {@code callback} first. */
    Uni<Void> start(WebSocketConnection connection, String channel, StreamCallback callback);

    /** Stops streaming {@code channel} to {@code connection}; nothing happens when it was not streamed. */
    void stop(WebSocketConnection connection, String channel);

    /** Stops every stream of {@code connection}. */
    void stopAll(WebSocketConnection connection);

    /** The channels streamed to {@code connection}. */
    Set<String> channels(WebSocketConnection connection);

    /** Completes when every stream started so far on {@code connection} (including {@link StreamFrom}'s) is live. */
    Uni<Void> confirmed(WebSocketConnection connection);

    /**
     * Puts {@code connection} into the presence set of {@code channel} as {@code presenceId}, on the server, as Action
     * Cable's {@code ChannelSubscription.joinPresence} does: the set holds ids, not connections, so the first session
     * with an id (on any node, Action Cable's too) makes the join event and more are silent; the newest join's info is
     * kept. The events reach Action Cable subscriptions with that presence set and {@link CablePresence#events} on every
     * node. The connection's close hands its memberships to {@code quarkus.cable.presence.ttl}: the leave comes when
     * the id's last session is gone and did not come back within it.
     * <p>
     * {@code info} is any object, written as JSON with the application's {@code ObjectMapper} (the one broadcasts are
     * encoded with; a {@code String} is a JSON string), or {@code null}. One membership
     * per connection and channel: a second join with the same id only updates the info, another id is refused (leave
     * first); at most {@code quarkus.cable.limits.max-subscriptions} presence sets per connection. Completes once the
     * join is committed (it runs off the caller's thread: the database decides "first session"). Fails with
     * {@link CableException.InvalidMessage} for a bad channel name, an empty id or one over 255 characters, info over
     * {@code quarkus.cable.presence.max-info-size}, another id, a membership beyond the bound or a closed connection;
     * with {@link CableException.Forbidden} for a channel reserved to the cable or to another identity; with
     * {@link CableException.QueueFull} when the connection was joined to the channel more than
     * {@code quarkus.cable.presence.changes-per-second} times a second (bursts of five seconds' worth; a join that only
     * updates the info counts too), the membership unchanged. The call does not throw, except
     * {@link NullPointerException} for a {@code null} connection.
     */
    Uni<Void> joinPresence(WebSocketConnection connection, String channel, String presenceId, Object info);

    /**
     * Takes {@code connection} out of the presence set of {@code channel} now: the leave event comes at once when it
     * was the id's last session. Nothing happens when it did not join. Throws {@link NullPointerException} for a
     * {@code null} connection.
     */
    Uni<Void> leavePresence(WebSocketConnection connection, String channel);
}
