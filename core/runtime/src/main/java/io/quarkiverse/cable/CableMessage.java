package io.quarkiverse.cable;

import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.type.TypeReference;

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

    /**
     * The payload decoded from JSON to {@code type} (a record, a POJO, a {@code String}, a {@code Map}...) with the
     * application's Jackson {@code ObjectMapper}, the one {@link Cable#broadcast(String, Object)} encodes with, so
     * what was broadcast as an object comes back as one. Each call decodes again.
     *
     * @throws CableException.InvalidMessage when the payload is not JSON of that type; the message names the
     *         message's id, its channel and the type
     */
    public <T> T as(Class<T> type) {
        return MessageJson.decode(this, type);
    }

    /** {@link #as(Class)} for a generic type: {@code message.as(new TypeReference<List<Price>>() {})}. */
    public <T> T as(TypeReference<T> type) {
        return MessageJson.decode(this, type.getType());
    }

    /** {@link #as(Class)} for any {@link Type} (a {@code ParameterizedType} taken from a field or a method). */
    public <T> T as(Type type) {
        return MessageJson.decode(this, type);
    }

    /** This message's place in its channel's stream, to resume after it; null when it has none. */
    public StreamPosition streamPosition() {
        return epoch == null ? null : new StreamPosition(epoch, position);
    }
}
