package io.quarkiverse.cable.runtime.wakeup;

import java.time.Duration;

import io.quarkiverse.cable.runtime.config.CableRuntimeConfig;

/** The wake-up configuration, validated and frozen at startup. */
public record WakeupSettings(WakeupMode mode, Duration probeInterval, DoorbellRing ring, Duration maxReconnectBackoff,
        Duration listenerCheckInterval) {

    public WakeupSettings {
        positive("quarkus.cable.wakeup.probe-interval", probeInterval);
        positive("quarkus.cable.wakeup.max-reconnect-backoff", maxReconnectBackoff);
        positive("quarkus.cable.wakeup.listener-check-interval", listenerCheckInterval);
    }

    public static WakeupSettings from(CableRuntimeConfig.Wakeup config) {
        return new WakeupSettings(config.mode(), config.probeInterval(), config.ring(), config.maxReconnectBackoff(),
                config.listenerCheckInterval());
    }

    /** Defaults for components built outside a Quarkus application (benchmarks, tests). */
    public static WakeupSettings defaults() {
        return new WakeupSettings(WakeupMode.AUTO, Duration.ofMillis(10), DoorbellRing.IN_TRANSACTION,
                Duration.ofSeconds(10), Duration.ofSeconds(15));
    }

    private static void positive(String property, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(
                    "Invalid configuration: " + property + " must be a positive duration, was " + value);
        }
    }
}
