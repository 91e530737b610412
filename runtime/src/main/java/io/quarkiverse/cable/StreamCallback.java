package io.quarkiverse.cable;

import io.quarkus.websockets.next.WebSocketConnection;

/**
 * Turns a broadcast into what one connection receives: transform, filter or enrich. Called on a virtual thread (never
 * on the poller or an event loop), one message at a time per connection and channel, in broadcast order, so it may
 * block.
 */
@FunctionalInterface
public interface StreamCallback {

    /** The text frame to send to {@code connection}, or null to send nothing for this message. */
    String apply(CableMessage message, WebSocketConnection connection);
}
