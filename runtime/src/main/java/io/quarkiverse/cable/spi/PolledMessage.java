package io.quarkiverse.cable.spi;

import io.quarkiverse.cable.CableMessage;

/**
 * A message read by the poller, with the hash its subscribers are looked up by, and when it was written
 * ({@code created_at} in epoch milliseconds, 0 when unknown).
 */
public record PolledMessage(long channelHash, CableMessage message, long createdAtMillis) {

    public PolledMessage(long channelHash, CableMessage message) {
        this(channelHash, message, 0);
    }
}
