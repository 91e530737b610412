package io.quarkiverse.cable.spi;

import java.util.concurrent.CompletableFuture;

/**
 * A broadcast waiting to be written; {@code committed} completes when its transaction commits.
 */
public record OutgoingMessage(String channel, long channelHash, byte[] payload, boolean binary, long queuedAtNanos,
        CompletableFuture<Void> committed) {
}
