package io.quarkiverse.cable.runtime.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * Every value of the database adapter's settings that would break it is refused when its transport is built, with a
 * message naming the property, the rule and the value; through the real mapping, defaults and converters included.
 */
class DatabaseConfigValidationTest {

    @Test
    void theDefaultsAreValid() {
        CableDatabaseConfig defaults = config();
        DatabaseConfigCheck.validate(defaults);
        assertThat(defaults.pollingInterval()).isEqualTo(Duration.ofMillis(100));
        assertThat(defaults.wakeup().mode()).isEqualTo(WakeupMode.AUTO);
        assertThat(defaults.schema().strategy()).isEmpty();
    }

    @Test
    void everyInvalidValueNamesItsProperty() {
        refused("quarkus.cable.polling-interval", "0s", "must be a positive duration, was PT0S");
        refused("quarkus.cable.poll-batch-size", "0", "must be at least 1, was 0");
        refused("quarkus.cable.trim.batch-size", "0", "must be at least 1, was 0");
        refused("quarkus.cable.trim.live-retention", "0s", "must be a positive duration, was PT0S");
        refused("quarkus.cable.wakeup.probe-interval", "0s", "must be a positive duration, was PT0S");
        refused("quarkus.cable.wakeup.max-reconnect-backoff", "0s", "must be a positive duration, was PT0S");
        refused("quarkus.cable.wakeup.listener-check-interval", "0s", "must be a positive duration, was PT0S");
        refused("quarkus.cable.wakeup.jdbc-url", "jdbc:mariadb://db/cable",
                "must be a PostgreSQL JDBC URL (jdbc:postgresql:...), was jdbc:mariadb://db/cable");
    }

    @Test
    void doorbellCredentialsWithoutItsUrlAreRefusedWithoutPrintingThem() {
        CableDatabaseConfig config = config("quarkus.cable.wakeup.password", "s3cret-value");
        assertThatThrownBy(() -> DatabaseConfigCheck.validate(config)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid configuration: quarkus.cable.wakeup.username and password apply only with"
                        + " quarkus.cable.wakeup.jdbc-url, which is not set, was set")
                .hasMessageNotContaining("s3cret-value");
    }

    private static void refused(String property, String value, String rule) {
        CableDatabaseConfig config = config(property, value);
        assertThatThrownBy(() -> DatabaseConfigCheck.validate(config)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid configuration: " + property + " " + rule);
    }

    /** The real mapping with its defaults, and each property of {@code pairs} (name, value, ...) set. */
    private static CableDatabaseConfig config(String... pairs) {
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder()
                .addDiscoveredConverters()
                .withMapping(CableDatabaseConfig.class);
        for (int i = 0; i < pairs.length; i += 2) {
            builder.withDefaultValue(pairs[i], pairs[i + 1]);
        }
        return builder.build().getConfigMapping(CableDatabaseConfig.class);
    }
}
