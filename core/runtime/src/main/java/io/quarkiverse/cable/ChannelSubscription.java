package io.quarkiverse.cable;

import java.util.Map;

import io.vertx.core.json.JsonObject;

/** One Action Cable subscription: one identifier on one connection. */
public interface ChannelSubscription {

    /** The identifier exactly as the client sent it. */
    String identifier();

    /** The identifier decoded: {@code channel} and the subscription's parameters. */
    JsonObject params();

    /** What the connection was identified with ({@link CableIdentification}); empty when nothing identified it. */
    Map<String, String> connectionIdentifiers();

    /**
     * The connection's session id, the {@code sid} its client received in the welcome message: what a broadcast "to
     * others" excludes, {@code cable.excluding(subscription.sessionId()).broadcast(...)} in an action, so the client
     * that performed it does not receive its own change. Every subscription of the connection has the same one.
     */
    String sessionId();

    /** Streams cable channel {@code channel} to this subscription; broadcasts arrive as {@code received(message)}. */
    void streamFrom(String channel);

    /**
     * Streams cable channel {@code channel} from a page cursor ({@code Cable.position}): the messages committed after
     * it are replayed first (behind {@code confirm_subscription}, before any live one, none twice), so a page that
     * rendered its data with the cursor misses nothing. An empty cursor replays from the channel's first message.
     * Call it from {@link ChannelHandler#subscribed}; later, it streams live only.
     * <p>
     * A client of the extended protocol that asks for history with a position of its own for {@code channel} (after a
     * reconnect) gets that instead: it is newer. When the history after the cursor is gone (trimmed, epoch changed,
     * more than {@code quarkus.cable.history.max-replay}), an extended client gets {@code reject_history} (the page
     * should reload); a plain {@code actioncable-v1-json} client cannot be told, and gets the live messages only.
     */
    default void streamFrom(String channel, java.util.Optional<StreamPosition> cursor) {
        streamFrom(channel);
    }

    /**
     * Lets this subscription's client whisper to the subscribers of cable channel {@code channel}
     * ({@code @anycable/web}'s {@code channel.whisper(data)}): each whisper goes, through the database, to every
     * subscription streaming {@code channel} on every node, except the ones of the whispering connection. Whispers are
     * never stored in the channel's history, so never replayed, and are limited per connection
     * ({@code quarkus.cable.limits.whisper-rate}). Receiving needs no call: every subscriber of a stream hears its
     * whispers. One whisper channel per subscription; a later call replaces it. Without a call, the client's whispers
     * are dropped.
     */
    void whisperTo(String channel);

    /**
     * Makes cable channel {@code channel}'s presence set this subscription's ({@code @anycable/web}'s
     * {@code channel.presence}): its client may join it ({@code presence.join(id, info)}), leave it and read it
     * ({@code presence.info()}), and it hears the set's joins and leaves as presence frames. The set is kept in the
     * database, one for the whole cluster: an id joins once however many sessions join with it, and leaves when the
     * last of them left, unsubscribed, or disconnected and did not come back within {@code quarkus.cable.presence.ttl}.
     * One presence set per subscription; a later call replaces it. Without a call, the client's presence commands are
     * answered with a presence error.
     * <p>
     * Who the client is comes from the server: its {@code presence.join(id, info)} is refused (a presence error, and a
     * log line naming the reason) unless {@code id} is its connection's presence id ({@link #connectionPresenceId()}),
     * so a connection identified as {@code mallory} cannot appear as {@code alice}. The info is the client's own
     * claim, under its own id. A channel whose ids are the clients' choice says so with
     * {@link #allowClientChosenPresenceIds()}.
     */
    void presenceIn(String channel);

    /**
     * The presence id the connection's identity gives ({@link CableIdentification}): the value of its one identifier,
     * or with several identifiers their {@code key=value} pairs sorted by key and joined with {@code &} (each part
     * URL-encoded, as in the identity's channel name); null for a connection nothing identified.
     */
    String connectionPresenceId();

    /**
     * Lets this subscription's client join its presence set under any id it chooses (a public lobby, a demo without
     * sign-in): the one way to opt out of the identity check of {@link #presenceIn}. Call it in
     * {@link ChannelHandler#subscribed}; joins the server makes ({@link #joinPresence}) are never checked.
     */
    void allowClientChosenPresenceIds();

    /**
     * Joins this subscription's presence set ({@link #presenceIn}) as {@code presenceId}, with {@code info} (any value
     * Vert.x JSON encodes, or null), as if its client had joined: what AnyCable's {@code join_presence} does on the
     * server. Called in {@link ChannelHandler#subscribed}, the join happens once the subscription is confirmed. The id
     * is the server's choice, so it is not checked against the connection's identity: pass
     * {@link #connectionPresenceId()} unless the channel knows better.
     *
     * @throws IllegalStateException when {@link #presenceIn} was not called
     */
    void joinPresence(String presenceId, Object info);

    /** Leaves this subscription's presence set at once, when it joined it. */
    void leavePresence();

    /** Stops streaming {@code channel}. */
    void stopStream(String channel);

    /**
     * Rejects the subscription; only meaningful in {@link ChannelHandler#subscribed} or an {@link OnSubscribe} method.
     * The client receives {@code reject_subscription}.
     */
    void reject();

    /**
     * Rejects the subscription with a reason: {@code reject_subscription} carries it in a {@code reason} field (which
     * {@code @rails/actioncable} and {@code @anycable/web} ignore), and the rejection is logged with it (rate-limited,
     * as invalid input of cause {@code rejected}). Only meaningful in {@link ChannelHandler#subscribed} or an
     * {@link OnSubscribe} method; {@link SubscriptionRejected} does the same by throwing.
     *
     * @param reason what the client is told; keep it short and free of what the client should not learn
     */
    default void reject(String reason) {
        reject();
    }

    boolean isRejected();

    /** Sends {@code message} (any value Vert.x JSON encodes: JsonObject, Map, String, number...) to this subscription only. */
    void transmit(Object message);
}
