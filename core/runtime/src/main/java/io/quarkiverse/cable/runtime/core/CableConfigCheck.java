package io.quarkiverse.cable.runtime.core;

import java.time.Duration;
import java.util.Map;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Validates {@link CableRuntimeConfig} once, when the cable is built, and gives the owners of the other configuration
 * roots (the HTTP publish endpoint, ...) the rules they validate theirs with. A value that would break the cable fails
 * startup with a message naming the property, the rule and the value. Defaults live only in the mappings'
 * {@code @WithDefault}s.
 */
public final class CableConfigCheck {

    private CableConfigCheck() {
    }

    /** Settings that moved, by their old name: set under the old name, they would be ignored without a word. */
    static final Map<String, String> RENAMED = Map.of(
            "quarkus.cable.autotrim", "quarkus.cable.trim.enabled",
            "quarkus.cable.trim-batch-size", "quarkus.cable.trim.batch-size",
            "quarkus.cable.mount-path", "quarkus.cable.action-cable.mount-path");

    static void validate(CableRuntimeConfig config) {
        renamed(ConfigProvider.getConfig());
        long maxPayloadSize = config.maxPayloadSize().asLongValue();
        if (maxPayloadSize < 1) {
            throw invalid("quarkus.cable.max-payload-size", maxPayloadSize + " bytes", "must be at least 1 byte");
        }
        atLeastOne("quarkus.cable.max-channel-length", config.maxChannelLength());
        atLeastOne("quarkus.cable.subscriber-buffer", config.subscriberBuffer());
        atLeastOne("quarkus.cable.writer.batch-size", config.writer().batchSize());
        notNegative("quarkus.cable.writer.batch-delay", config.writer().batchDelay());
        atLeastOne("quarkus.cable.writer.queue-capacity", config.writer().queueCapacity());
        config.writer().maxQueuedPerChannel()
                .ifPresent(share -> atLeastOne("quarkus.cable.writer.max-queued-per-channel", share));
        notNegative("quarkus.cable.writer.retry-timeout", config.writer().retryTimeout());
        if (config.writer().maxConflictRetries() < 0) {
            throw invalid("quarkus.cable.writer.max-conflict-retries", config.writer().maxConflictRetries(),
                    "must not be negative");
        }
        positive("quarkus.cable.writer.commit-timeout", config.writer().commitTimeout());
        positive("quarkus.cable.message-retention", config.messageRetention());
        atLeastOne("quarkus.cable.websocket.max-pending-frames", config.websocket().maxPendingFrames());
        positive("quarkus.cable.websocket.stall-timeout", config.websocket().stallTimeout());
        if (config.websocket().pingInterval().toMillis() < 100) {
            throw invalid("quarkus.cable.websocket.ping-interval", config.websocket().pingInterval(),
                    "must be at least 100ms");
        }
        if (config.websocket().pongTimeout().compareTo(config.websocket().pingInterval()) <= 0) {
            throw invalid("quarkus.cable.websocket.pong-timeout", config.websocket().pongTimeout(),
                    "must be longer than quarkus.cable.websocket.ping-interval (" + config.websocket().pingInterval()
                            + "): a client gets at least one ping to answer");
        }
        atLeastOne("quarkus.cable.websocket.max-pings-per-second", config.websocket().maxPingsPerSecond());
        // Every conforming client answers each of the cable's pings: twice that rate leaves room for its own.
        if ((long) config.websocket().maxPongsPerSecond() * config.websocket().pingInterval().toMillis() < 2000) {
            throw invalid("quarkus.cable.websocket.max-pongs-per-second", config.websocket().maxPongsPerSecond(),
                    "must be at least twice the pings the cable sends per second (quarkus.cable.websocket.ping-interval "
                            + config.websocket().pingInterval() + "): every client answers each of them");
        }
        if (config.websocket().upgradeTimeout().isNegative()) {
            throw invalid("quarkus.cable.websocket.upgrade-timeout", config.websocket().upgradeTimeout(),
                    "must not be negative (0 turns it off)");
        }
        atLeastOne("quarkus.cable.presence.changes-per-second", config.presence().changesPerSecond());
        atLeastOne("quarkus.cable.history.max-concurrent-replays", config.history().maxConcurrentReplays());
        atLeastOne("quarkus.cable.history.max-queued-replays", config.history().maxQueuedReplays());
        positive("quarkus.cable.history.queue-timeout", config.history().queueTimeout());
        atLeastOne("quarkus.cable.history.max-replays-per-connection", config.history().maxReplaysPerConnection());
        atLeastOne("quarkus.cable.history.page-size", config.history().pageSize());
        atLeastOne("quarkus.cable.history.max-replay-bytes-in-flight", config.history().maxReplayBytesInFlight());
        atLeastOne("quarkus.cable.history.max-replays-in-flight", config.history().maxReplaysInFlight());
        if (config.presence().ttl().toMillis() < 100) {
            throw invalid("quarkus.cable.presence.ttl", config.presence().ttl(), "must be at least 100ms");
        }
        atLeastOne("quarkus.cable.presence.max-records", config.presence().maxRecords());
        atLeastOne("quarkus.cable.presence.info-bytes-per-second", config.presence().infoBytesPerSecond());
        if (config.presence().maxInfoSize().asLongValue() < 1) {
            throw invalid("quarkus.cable.presence.max-info-size", config.presence().maxInfoSize().asLongValue()
                    + " bytes", "must be at least 1 byte");
        }
        atLeastOne("quarkus.cable.websocket.max-pending-bytes", config.websocket().maxPendingBytes());
        config.writer().maxTransactionBroadcasts()
                .ifPresent(max -> atLeastOne("quarkus.cable.writer.max-transaction-broadcasts", max));
        atLeastOne("quarkus.cable.limits.max-identifier-size", config.limits().maxIdentifierSize());
        atLeastOne("quarkus.cable.limits.max-subscriptions", config.limits().maxSubscriptions());
        atLeastOne("quarkus.cable.limits.max-queued-commands", config.limits().maxQueuedCommands());
        atLeastOne("quarkus.cable.limits.max-queued-command-bytes", config.limits().maxQueuedCommandBytes());
        atLeastOne("quarkus.cable.limits.command-rate", config.limits().commandRate());
        atLeastOne("quarkus.cable.limits.command-burst", config.limits().commandBurst());
        atLeastOne("quarkus.cable.limits.whisper-rate", config.limits().whisperRate());
        atLeastOne("quarkus.cable.limits.whisper-burst", config.limits().whisperBurst());
        atLeastOne("quarkus.cable.limits.max-whisper-size", config.limits().maxWhisperSize());
        history(config.history());
        turbo(config.turbo());
    }

    /** Refuses a setting under its old name, naming the new one. */
    static void renamed(Config config) {
        RENAMED.forEach((old, current) -> {
            if (config.getConfigValue(old).getValue() != null) {
                throw new IllegalArgumentException("Invalid configuration: " + old + " was renamed to " + current
                        + "; set that instead");
            }
        });
    }

    private static void history(CableRuntimeConfig.History history) {
        history.window().ifPresent(window -> positive("quarkus.cable.history.window", window));
        if (history.maxReplay() < 0) {
            throw invalid("quarkus.cable.history.max-replay", history.maxReplay(), "must not be negative");
        }
        if (history.memorySize() < 0) {
            throw invalid("quarkus.cable.history.memory-size", history.memorySize(), "must not be negative");
        }
    }

    /**
     * The shortest Turbo signing key, in bytes: HMAC-SHA256 is as strong as its key up to the hash's 32 bytes, and a
     * short or guessable key lets anyone sign stream names (each a bearer capability to its stream).
     */
    static final int MIN_TURBO_KEY_BYTES = 32;

    private static void turbo(CableRuntimeConfig.Turbo turbo) {
        turbo.signingKey().ifPresent(key -> turboKey("quarkus.cable.turbo.signing-key", key));
        turbo.previousSigningKeys().ifPresent(keys -> keys
                .forEach(key -> turboKey("quarkus.cable.turbo.previous-signing-keys", key)));
    }

    private static void turboKey(String property, String key) {
        int bytes = key.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes < MIN_TURBO_KEY_BYTES) {
            // The length only: the message must never print the key.
            throw invalid(property, bytes + " bytes", "must be at least " + MIN_TURBO_KEY_BYTES
                    + " bytes (a long random secret, e.g. openssl rand -base64 48)");
        }
    }

    public static void positive(String property, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw invalid(property, value, "must be a positive duration");
        }
    }

    public static void notNegative(String property, Duration value) {
        if (value.isNegative()) {
            throw invalid(property, value, "must not be negative");
        }
    }

    public static void atLeastOne(String property, int value) {
        if (value < 1) {
            throw invalid(property, value, "must be at least 1");
        }
    }

    public static void atLeastOne(String property, io.quarkus.runtime.configuration.MemorySize value) {
        if (value.asLongValue() < 1) {
            throw invalid(property, value.asLongValue() + " bytes", "must be at least 1 byte");
        }
    }

    public static IllegalArgumentException invalid(String property, Object value, String rule) {
        return new IllegalArgumentException("Invalid configuration: " + property + " " + rule + ", was " + value);
    }
}
