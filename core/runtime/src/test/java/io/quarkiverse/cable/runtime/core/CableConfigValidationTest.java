package io.quarkiverse.cable.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * Every run-time value that would break the cable is refused at startup with a message naming the property, the
 * rule and the value (the startup path itself is covered by InvalidBatchSizeTest and its siblings). The values go
 * through the real configuration mapping, defaults and converters included. The database adapter's settings are
 * checked by its own DatabaseConfigValidationTest.
 */
class CableConfigValidationTest {

    @Test
    void theDefaultsAreValid() {
        CableRuntimeConfig defaults = config();
        CableConfigCheck.validate(defaults);
        assertThat(defaults.maxPayloadSize().asLongValue()).isEqualTo(1024 * 1024);
    }

    @Test
    void everyInvalidValueNamesItsProperty() {
        refused("quarkus.cable.max-payload-size", "0", "must be at least 1 byte, was 0 bytes");
        refused("quarkus.cable.max-channel-length", "-1", "must be at least 1, was -1");
        refused("quarkus.cable.subscriber-buffer", "0", "must be at least 1, was 0");
        refused("quarkus.cable.writer.batch-size", "0", "must be at least 1, was 0");
        refused("quarkus.cable.writer.batch-delay", "-1ms", "must not be negative, was PT-0.001S");
        refused("quarkus.cable.writer.queue-capacity", "0", "must be at least 1, was 0");
        refused("quarkus.cable.writer.retry-timeout", "-1s", "must not be negative, was PT-1S");
        refused("quarkus.cable.message-retention", "-1d", "must be a positive duration, was PT-24H");
        refused("quarkus.cable.limits.max-whisper-size", "0", "must be at least 1 byte, was 0 bytes");
        refused("quarkus.cable.websocket.max-pending-frames", "0", "must be at least 1, was 0");
        refused("quarkus.cable.websocket.stall-timeout", "0s", "must be a positive duration, was PT0S");
        refused("quarkus.cable.websocket.max-pongs-per-second", "0", "must be at least twice the pings the cable"
                + " sends per second (quarkus.cable.websocket.ping-interval PT5S): every client answers each of them, was 0");
        refused("quarkus.cable.websocket.upgrade-timeout", "-1s", "must not be negative (0 turns it off), was PT-1S");
        refused("quarkus.cable.presence.changes-per-second", "0", "must be at least 1, was 0");
        refused("quarkus.cable.history.window", "0s", "must be a positive duration, was PT0S");
        refused("quarkus.cable.history.max-replay", "-1", "must not be negative, was -1");
        refused("quarkus.cable.history.memory-size", "-1", "must not be negative, was -1");
    }

    @Test
    void turboKeysAreAtLeast32BytesAndNeverPrinted() {
        String rule = "must be at least 32 bytes (a long random secret, e.g. openssl rand -base64 48), was 31 bytes";
        refused("quarkus.cable.turbo.signing-key", "x".repeat(31), rule);
        refused("quarkus.cable.turbo.previous-signing-keys", "y".repeat(40) + "," + "z".repeat(31), rule);
        // Counted in UTF-8 bytes: 16 two-byte characters are 32 bytes.
        CableConfigCheck.validate(config("quarkus.cable.turbo.signing-key", "é".repeat(16)));
        CableConfigCheck.validate(config("quarkus.cable.turbo.previous-signing-keys", "y".repeat(32)));
    }

    @Test
    void aSettingUnderItsOldNameIsRefusedNamingTheNewOne() {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withDefaultValue("quarkus.cable.autotrim", "false").build();
        assertThatThrownBy(() -> CableConfigCheck.renamed(config)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid configuration: quarkus.cable.autotrim was renamed to quarkus.cable.trim.enabled;"
                        + " set that instead");
        CableConfigCheck.renamed(new SmallRyeConfigBuilder()
                .withDefaultValue("quarkus.cable.trim.enabled", "false").build());
    }

    private static void refused(String property, String value, String rule) {
        CableRuntimeConfig config = config(property, value);
        assertThatThrownBy(() -> CableConfigCheck.validate(config)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid configuration: " + property + " " + rule);
    }

    /** The real mapping with its defaults, and each property of {@code pairs} (name, value, ...) set. */
    private static CableRuntimeConfig config(String... pairs) {
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder()
                .addDiscoveredConverters()
                .withMapping(CableRuntimeConfig.class);
        for (int i = 0; i < pairs.length; i += 2) {
            builder.withDefaultValue(pairs[i], pairs[i + 1]);
        }
        SmallRyeConfig config = builder.build();
        return config.getConfigMapping(CableRuntimeConfig.class);
    }
}
