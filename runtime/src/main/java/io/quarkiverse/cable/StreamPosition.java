package io.quarkiverse.cable;

/**
 * Where a subscriber is in a channel's stream: the channel's {@code epoch} and the {@code offset} of the last message
 * it consumed.
 * <p>
 * Offsets count a channel's stored messages from 1, without gaps, in commit order. They are never reused within an
 * epoch; the epoch changes when the channel's history is lost or reset (a new channel row in the database, a restart
 * of the memory adapter). A position is therefore only meaningful together with its epoch.
 *
 * @param epoch the opaque name of the channel's history incarnation
 * @param offset the position of the last message consumed; 0 means "before the first message"
 */
public record StreamPosition(String epoch, long offset) {

    public StreamPosition {
        if (epoch == null || epoch.isEmpty()) {
            throw new IllegalArgumentException("A stream position needs an epoch");
        }
        if (offset < 0) {
            throw new IllegalArgumentException("A stream position's offset must not be negative, was " + offset);
        }
    }

    /** The position of {@code message}, so that a later subscribe replays what came after it. */
    public static StreamPosition of(CableMessage message) {
        return new StreamPosition(message.epoch(), message.position());
    }
}
