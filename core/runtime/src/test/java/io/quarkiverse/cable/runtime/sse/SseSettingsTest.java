package io.quarkiverse.cable.runtime.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * The SSE front end reads its settings from its own root and refuses, naming the property, a value that would break
 * it; the stall timeout is the WebSocket front ends'. Through the real mappings, defaults and converters included.
 */
class SseSettingsTest {

    @Test
    void theDefaults() {
        SseSettings defaults = settings();
        assertThat(defaults.maxPendingBytes()).isEqualTo(4L * 1024 * 1024);
        assertThat(defaults.maxStreamNanos()).isEqualTo(Duration.ofMinutes(2).toNanos());
        assertThat(defaults.stallTimeoutNanos()).isEqualTo(Duration.ofSeconds(10).toNanos());
        assertThat(settings("quarkus.cable.sse.max-stream-duration", "0").maxStreamNanos()).isZero();
        assertThat(settings("quarkus.cable.websocket.stall-timeout", "3s").stallTimeoutNanos())
                .isEqualTo(Duration.ofSeconds(3).toNanos());
    }

    @Test
    void everyInvalidValueNamesItsProperty() {
        refused("quarkus.cable.sse.max-pending-bytes", "0", "must be at least 1 byte, was 0 bytes");
        refused("quarkus.cable.sse.max-streams-per-client", "0", "must be at least 1, was 0");
        refused("quarkus.cable.sse.max-stream-duration", "500ms",
                "must be 0 (no limit) or at least 1s: every end is a reconnect and a history read, was PT0.5S");
        refused("quarkus.cable.sse.max-stream-duration", "-1m",
                "must be 0 (no limit) or at least 1s: every end is a reconnect and a history read, was PT-1M");
    }

    private static void refused(String property, String value, String rule) {
        assertThatThrownBy(() -> settings(property, value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid configuration: " + property + " " + rule);
    }

    private static SseSettings settings(String... pairs) {
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder().addDiscoveredConverters()
                .withMapping(CableRuntimeConfig.class).withMapping(CableSseConfig.class);
        for (int i = 0; i < pairs.length; i += 2) {
            builder.withDefaultValue(pairs[i], pairs[i + 1]);
        }
        SmallRyeConfig config = builder.build();
        return SseSettings.from(config.getConfigMapping(CableSseConfig.class),
                config.getConfigMapping(CableRuntimeConfig.class));
    }
}
