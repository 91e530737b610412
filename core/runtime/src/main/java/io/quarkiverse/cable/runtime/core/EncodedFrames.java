package io.quarkiverse.cable.runtime.core;

import java.util.function.Function;

import io.quarkiverse.cable.CableMessage;

/**
 * Encodes each broadcast once per node for all the connections that receive the same frame shape. A message is
 * dispatched to all its local subscribers in one go, on one thread, so remembering the last message is enough: every
 * connection after the first reuses the frame. (The same {@link CableMessage} instance reaches every subscriber, so
 * identity is the key.) The raw endpoint streams use the payload itself; the Action Cable endpoint keeps one instance
 * per subscription identifier, whose frame wraps the payload with that identifier.
 */
public final class EncodedFrames {

    private record Encoded(CableMessage message, Object frame) {
    }

    private final Function<CableMessage, Object> encoder;
    private volatile Encoded last;

    /** The payload as it is: a String for a text frame, a byte[] for a binary frame. */
    public EncodedFrames() {
        this(message -> message.binary() ? message.payload() : message.text());
    }

    /** Frames made by {@code encoder}, called at most once per message while this message is the latest. */
    public EncodedFrames(Function<CableMessage, Object> encoder) {
        this.encoder = encoder;
    }

    /** The frame for {@code message}. */
    public Object frameFor(CableMessage message) {
        Encoded cached = last;
        if (cached != null && cached.message() == message) {
            return cached.frame();
        }
        Object frame = encoder.apply(message);
        last = new Encoded(message, frame);
        return frame;
    }
}
