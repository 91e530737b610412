package io.quarkiverse.cable.runtime.websocket;

import io.quarkiverse.cable.CableMessage;

/**
 * Encodes each broadcast once per node for all the connections streaming it. A message is dispatched to all its local
 * subscribers in one go, on one thread, so remembering the last message is enough: every connection after the first
 * reuses the frame. (The same {@link CableMessage} instance reaches every subscriber, so identity is the key.)
 */
public final class EncodedFrames {

    private record Encoded(CableMessage message, Object frame) {
    }

    private volatile Encoded last;

    /** The frame for {@code message}: a String for a text frame, a byte[] for a binary frame. */
    public Object frameFor(CableMessage message) {
        Encoded cached = last;
        if (cached != null && cached.message() == message) {
            return cached.frame();
        }
        Object frame = message.binary() ? message.payload() : message.text();
        last = new Encoded(message, frame);
        return frame;
    }
}
