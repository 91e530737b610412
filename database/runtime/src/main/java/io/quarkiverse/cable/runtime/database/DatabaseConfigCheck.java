package io.quarkiverse.cable.runtime.database;

import static io.quarkiverse.cable.runtime.core.CableConfigCheck.atLeastOne;
import static io.quarkiverse.cable.runtime.core.CableConfigCheck.invalid;
import static io.quarkiverse.cable.runtime.core.CableConfigCheck.positive;

/**
 * Validates {@link CableDatabaseConfig} once, when the adapter's transport is built, with the core's rules: a value
 * that would break the adapter fails startup naming the property, the rule and the value.
 */
final class DatabaseConfigCheck {

    private DatabaseConfigCheck() {
    }

    static void validate(CableDatabaseConfig config) {
        positive("quarkus.cable.polling-interval", config.pollingInterval());
        atLeastOne("quarkus.cable.poll-batch-size", config.pollBatchSize());
        atLeastOne("quarkus.cable.trim.batch-size", config.trim().batchSize());
        // Not tied to polling-interval: with a wake-up (or a test that polls by hand) the interval is a fallback of an
        // hour, and the rows are read at the wake-up, long before their retention ends.
        positive("quarkus.cable.trim.live-retention", config.trim().liveRetention());
        wakeup(config.wakeup());
    }

    private static void wakeup(CableDatabaseConfig.Wakeup wakeup) {
        positive("quarkus.cable.wakeup.probe-interval", wakeup.probeInterval());
        positive("quarkus.cable.wakeup.max-reconnect-backoff", wakeup.maxReconnectBackoff());
        positive("quarkus.cable.wakeup.listener-check-interval", wakeup.listenerCheckInterval());
        boolean direct = wakeup.jdbcUrl().filter(url -> !url.isBlank()).isPresent();
        if (direct && !wakeup.jdbcUrl().get().trim().startsWith("jdbc:postgresql:")) {
            throw invalid("quarkus.cable.wakeup.jdbc-url", wakeup.jdbcUrl().get(),
                    "must be a PostgreSQL JDBC URL (jdbc:postgresql:...)");
        }
        if (!direct && (wakeup.username().isPresent() || wakeup.password().isPresent())) {
            // The value is a credential: the message names only the properties.
            throw invalid("quarkus.cable.wakeup.username and password", "set",
                    "apply only with quarkus.cable.wakeup.jdbc-url, which is not set");
        }
    }
}
