package io.quarkiverse.cable;

import java.nio.charset.StandardCharsets;

/**
 * One broadcast as it is delivered to subscribers. The same instance is handed to every local subscriber of the
 * channel, so the payload is decoded from the database once per node.
 *
 * @param id the global message id; ids grow in commit order
 * @param channel the channel name
 * @param payload the raw payload bytes (UTF-8 for text broadcasts); do not modify
 * @param binary whether the message was broadcast as bytes rather than text
 * @param position the message's offset in its channel's stream: 1 for the channel's first message, +1 for each
 *        following one, in commit order (see {@link StreamPosition})
 * @param epoch the epoch the position belongs to; null only for messages built outside the cable
 */
public record CableMessage(long id, String channel, byte[] payload, boolean binary, long position, String epoch) {

    /** A message without a stream position (built outside the cable, e.g. in tests). */
    public CableMessage(long id, String channel, byte[] payload, boolean binary) {
        this(id, channel, payload, binary, 0, null);
    }

    /** The payload as text (decoded as UTF-8). */
    public String text() {
        return new String(payload, StandardCharsets.UTF_8);
    }

    /** This message's place in its channel's stream, to resume after it; null when it has none. */
    public StreamPosition streamPosition() {
        return epoch == null ? null : new StreamPosition(epoch, position);
    }
}
