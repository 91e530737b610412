package io.quarkiverse.cable.spi;

import io.quarkiverse.cable.CableMessage;

/**
 * A message read by the poller, with the hash its subscribers are looked up by, when it was written
 * ({@code created_at} in epoch milliseconds, 0 when unknown), and the session it must not reach (null for none:
 * {@link ExcludedSession}).
 */
public record PolledMessage(long channelHash, CableMessage message, long createdAtMillis, String excludedSession) {

    public PolledMessage(long channelHash, CableMessage message, long createdAtMillis) {
        this(channelHash, message, createdAtMillis, null);
    }

    public PolledMessage(long channelHash, CableMessage message) {
        this(channelHash, message, 0);
    }
}
