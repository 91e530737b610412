package io.quarkiverse.cable.runtime.sse;

import java.time.Duration;
import java.util.random.RandomGenerator;

import io.quarkiverse.cable.runtime.core.CableConfigCheck;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;

/**
 * The bounds of one SSE stream, read once.
 *
 * @param maxPendingBytes the most bytes (event characters) a stream may have waiting for its client
 * @param stallTimeoutNanos how long a stream with events waiting may go without writing one
 * @param heartbeatNanos how long a stream may go without writing anything before a heartbeat is queued; 0: never
 * @param maxStreamNanos the longest a stream lasts before the cable ends it and its client reconnects; 0: no limit
 */
record SseSettings(long maxPendingBytes, long stallTimeoutNanos, long heartbeatNanos, long maxStreamNanos) {

    /**
     * The SSE front end's settings, validated: a value that would break it fails startup naming its property. The
     * stall timeout is the WebSocket front ends' ({@code websocket.stall-timeout}), which {@code CableConfigCheck}
     * validated.
     */
    static SseSettings from(CableSseConfig sse, CableRuntimeConfig config) {
        CableConfigCheck.atLeastOne("quarkus.cable.sse.max-streams-per-client", sse.maxStreamsPerClient());
        if (sse.maxPendingBytes().asLongValue() < 1) {
            throw CableConfigCheck.invalid("quarkus.cable.sse.max-pending-bytes", sse.maxPendingBytes().asLongValue()
                    + " bytes", "must be at least 1 byte");
        }
        Duration maxStreamDuration = sse.maxStreamDuration();
        if (!maxStreamDuration.isZero() && maxStreamDuration.toMillis() < 1000) {
            throw CableConfigCheck.invalid("quarkus.cable.sse.max-stream-duration", maxStreamDuration,
                    "must be 0 (no limit) or at least 1s: every end is a reconnect and a history read");
        }
        return new SseSettings(sse.maxPendingBytes().asLongValue(), config.websocket().stallTimeout().toNanos(),
                sse.heartbeatInterval().toNanos(), maxStreamDuration.toNanos());
    }

    /**
     * How long a stream starting now lasts, or 0 when streams have no limit: a random point in the last quarter of the
     * limit, so that streams opened in the same second (every client of a node that restarted) end spread over a
     * quarter of it and their reconnects, each a request and a history read, do not arrive together; the next round
     * spreads further. Never over the limit, so the limit is the documented bound.
     */
    long streamLifetimeNanos(RandomGenerator random) {
        if (maxStreamNanos <= 0) {
            return 0;
        }
        long spread = maxStreamNanos / 4;
        return maxStreamNanos - (spread <= 0 ? 0 : random.nextLong(spread + 1));
    }
}
