package io.quarkiverse.cable.runtime.core;

import java.time.Duration;

/** {@code quarkus.cable.presence.*}, read once. */
public record PresenceSettings(Duration ttl, int maxRecords, int maxInfoSize, boolean identityEvents, boolean inStream,
        int maxPendingPerId, int maxPending) {

    public static PresenceSettings from(CableRuntimeConfig config) {
        return new PresenceSettings(config.presence().ttl(), config.presence().maxRecords(),
                (int) Math.min(Integer.MAX_VALUE, config.presence().maxInfoSize().asLongValue()),
                config.presence().identityEvents(), config.presence().inStream(), config.presence().maxPendingPerId(),
                config.presence().maxPending());
    }

    /**
     * Whether a change of {@code channel}'s presence set is also a message of that channel's stream
     * ({@code quarkus.cable.presence.in-stream}): never for the cable's own sets (identities), which have no stream.
     */
    public boolean inStream(String channel) {
        return inStream && !IdentityChannels.isCableOwned(channel);
    }

    /** How often a node renews its lease: twice per TTL, so one late renewal never loses it. */
    public long leaseRenewalNanos() {
        return ttl.toNanos() / 2;
    }

    /** How often expired sessions are looked for: every second, or four times per TTL when that is shorter. */
    public long reapIntervalNanos() {
        return Math.min(Duration.ofSeconds(1).toNanos(), ttl.toNanos() / 4);
    }
}
