package io.quarkiverse.cable.runtime;

import java.util.concurrent.CompletableFuture;

import io.quarkiverse.cable.runtime.store.OutgoingMessage;
import io.quarkiverse.cable.runtime.subscribers.LocalSubscription;

/**
 * What carries broadcasts from {@link CableEngine} to subscribers: the database (every node) or memory (this node).
 */
public interface Transport {

    String adapter();

    /** Accepts a validated broadcast; the future completes once it is stored and ordered. Never blocks. */
    CompletableFuture<Void> send(OutgoingMessage message);

    /** Records the subscription's starting line, adds it to the subscriber map and confirms it. Never blocks. */
    void startSubscription(LocalSubscription subscription);

    void start();

    /** Stops accepting broadcasts, stores what was accepted, then stops delivering. */
    void stop();
}
