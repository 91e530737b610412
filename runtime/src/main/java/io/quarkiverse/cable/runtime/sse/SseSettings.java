package io.quarkiverse.cable.runtime.sse;

import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;

/**
 * The bounds of one SSE stream, read once.
 *
 * @param maxPendingBytes the most bytes (event characters) a stream may have waiting for its client
 * @param stallTimeoutNanos how long a stream with events waiting may go without writing one
 * @param heartbeatNanos how long a stream may go without writing anything before a heartbeat is queued; 0: never
 */
record SseSettings(long maxPendingBytes, long stallTimeoutNanos, long heartbeatNanos) {

    public static SseSettings from(CableRuntimeConfig config) {
        return new SseSettings(config.sse().maxPendingBytes().asLongValue(),
                config.websocket().stallTimeout().toNanos(), config.sse().heartbeatInterval().toNanos());
    }
}
