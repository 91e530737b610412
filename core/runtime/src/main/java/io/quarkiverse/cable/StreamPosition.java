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

    /**
     * The text form of a page cursor ({@link Cable#position(String)}) for a rendered page: {@code <epoch>:<offset>},
     * or {@code 0} when the channel had no message (then the client starts from its first one). The same text as the
     * ids of {@link CableEventStream}'s events, so it can be handed to a stream as its {@code Last-Event-ID}.
     */
    public static String cursor(java.util.Optional<StreamPosition> position) {
        return position.map(p -> p.epoch() + ":" + p.offset()).orElse("0");
    }

    /**
     * Reads {@link #cursor(java.util.Optional)}'s text back: empty for {@code 0} (from the start).
     *
     * @throws IllegalArgumentException when it is not a cursor
     */
    public static java.util.Optional<StreamPosition> parseCursor(String cursor) {
        String text = cursor == null ? "" : cursor.trim();
        if (text.equals("0")) {
            return java.util.Optional.empty();
        }
        int colon = text.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("Not a stream cursor: " + cursor);
        }
        try {
            return java.util.Optional.of(new StreamPosition(text.substring(0, colon),
                    Long.parseLong(text.substring(colon + 1))));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Not a stream cursor: " + cursor);
        }
    }

    /** The position of {@code message}, so that a later subscribe replays what came after it. */
    public static StreamPosition of(CableMessage message) {
        return new StreamPosition(message.epoch(), message.position());
    }
}
