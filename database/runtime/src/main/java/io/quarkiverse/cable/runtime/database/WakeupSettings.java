package io.quarkiverse.cable.runtime.database;

import java.time.Duration;
import java.util.Optional;

import io.quarkiverse.cable.spi.Wakeup;

/** The wake-up configuration, frozen at startup (validated by {@code CableConfigCheck}). */
record WakeupSettings(WakeupMode mode, Duration probeInterval, DoorbellRing ring, Duration maxReconnectBackoff,
        Duration listenerCheckInterval, Optional<DirectConnection> direct) {

    /**
     * Where the doorbell's {@code LISTEN} connection goes when it must not take the datasource's route (a pooler in
     * transaction mode drops notifications). Empty user or password: the datasource's.
     */
    public record DirectConnection(String jdbcUrl, Optional<String> username, Optional<String> password) {
    }

    public static WakeupSettings from(CableDatabaseConfig.Wakeup config) {
        Optional<DirectConnection> direct = config.jdbcUrl().filter(url -> !url.isBlank())
                .map(url -> new DirectConnection(url.trim(), config.username(), config.password()));
        return new WakeupSettings(config.mode(), config.probeInterval(), config.ring(), config.maxReconnectBackoff(),
                config.listenerCheckInterval(), direct);
    }
}
