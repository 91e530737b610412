package io.quarkiverse.cable;

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
}
