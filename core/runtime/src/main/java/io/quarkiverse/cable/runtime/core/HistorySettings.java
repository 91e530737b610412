package io.quarkiverse.cable.runtime.core;

import java.time.Duration;
import java.util.Optional;

/**
 * The recovery settings, read once at startup (validated by {@code CableConfigCheck}).
 *
 * @param window how long messages stay available for recovery; trimming never deletes younger messages
 * @param maxReplay the most messages one recovery replays; more missed messages are refused as a whole
 * @param memorySize how many messages per channel the memory adapter keeps for recovery
 */
public record HistorySettings(Duration window, int maxReplay, int memorySize) {

    /** Reads the recovery settings; an unset window is the message retention. */
    public static HistorySettings from(CableRuntimeConfig config) {
        CableRuntimeConfig.History history = config.history();
        return new HistorySettings(history.window().orElse(config.messageRetention()), history.maxReplay(),
                history.memorySize());
    }

    /**
     * How long trimming keeps messages: the message retention, or the recovery window when that is longer, so
     * trimming never deletes what the window promises.
     */
    public static Duration retentionFor(Duration messageRetention, Optional<Duration> window) {
        return window.filter(w -> w.compareTo(messageRetention) > 0).orElse(messageRetention);
    }
}
