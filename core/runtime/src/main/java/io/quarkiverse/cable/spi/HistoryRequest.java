package io.quarkiverse.cable.spi;

import java.time.Instant;

import io.quarkiverse.cable.StreamPosition;

/** What a recovering subscriber asks to be replayed before it goes live. */
public sealed interface HistoryRequest {

    /**
     * The position a refusal of this request names: the one asked for, or {@code -:0} when the request names none (it
     * asks from the start, from a time or for the position only).
     */
    default StreamPosition asked() {
        return this instanceof After after ? after.position() : new StreamPosition("-", 0);
    }

    /** The messages after a position: exact. */
    record After(StreamPosition position) implements HistoryRequest {
    }

    /**
     * Everything the channel has in its current epoch, from position 1: for a subscriber that started before the
     * channel had any message (and so holds no epoch). Refused when position 1 is no longer stored.
     */
    record FromStart() implements HistoryRequest {
    }

    /** Nothing to replay: only the channel's position at the starting line (to resume from later). */
    record PositionOnly() implements HistoryRequest {
    }

    /**
     * The messages created at or after a time: best effort, since it compares the subscriber's clock with the
     * writers'; refused whenever completeness cannot be proven.
     */
    record Since(Instant since) implements HistoryRequest {
    }
}
