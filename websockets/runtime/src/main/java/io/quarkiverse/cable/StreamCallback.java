package io.quarkiverse.cable;

import java.util.Objects;
import java.util.function.BiFunction;

import io.quarkus.websockets.next.WebSocketConnection;

/**
 * Turns a broadcast into what one connection receives: transform, filter or enrich. Called on a virtual thread (never
 * on the poller or an event loop), one message at a time per connection and channel, in broadcast order, so it may
 * block.
 */
@FunctionalInterface
public interface StreamCallback {

    /**
     * What to send to {@code connection} for this message, or null to send nothing: a {@code String} is sent as a
     * text frame, a {@code byte[]} as a binary frame, and any other object as a text frame of its JSON, written with
     * the application's Jackson {@code ObjectMapper}.
     */
    Object apply(CableMessage message, WebSocketConnection connection);

    /**
     * A callback that receives each payload decoded to {@code type} ({@link CableMessage#as(Class)}) instead of the
     * message: {@code streams.start(connection, "prices", StreamCallback.typed(Price.class, (price, c) -> ...))}.
     * What it returns is sent as {@link #apply} says. A payload that does not decode is a callback failure: that
     * message is not sent to the connection (logged and counted), the next ones are.
     */
    static <T> StreamCallback typed(Class<T> type, BiFunction<? super T, WebSocketConnection, ?> callback) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(callback, "callback");
        return (message, connection) -> callback.apply(message.as(type), connection);
    }
}
