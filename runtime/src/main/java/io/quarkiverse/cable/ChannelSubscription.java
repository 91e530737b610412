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

    /** Streams cable channel {@code channel} to this subscription; broadcasts arrive as {@code received(message)}. */
    void streamFrom(String channel);

    /** Stops streaming {@code channel}. */
    void stopStream(String channel);

    /** Rejects the subscription; only meaningful in {@link ChannelHandler#subscribed}. */
    void reject();

    boolean isRejected();

    /** Sends {@code message} (any value Vert.x JSON encodes: JsonObject, Map, String, number...) to this subscription only. */
    void transmit(Object message);
}
