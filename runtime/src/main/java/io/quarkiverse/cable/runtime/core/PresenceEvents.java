package io.quarkiverse.cable.runtime.core;

import java.util.concurrent.CompletableFuture;

import io.quarkiverse.cable.spi.PresenceEnvelope;

/**
 * This node's presence events by channel, for the listeners of that channel (Action Cable subscriptions in that
 * presence set's channel, {@code CablePresence.events}, SSE streams with presence).
 */
public interface PresenceEvents {

    /** Hears the joins and leaves of a channel; called on the poller, must not block. */
    interface Listener {
        void changed(PresenceEnvelope event);
    }

    /**
     * {@code listener} hears {@code channel}'s events from now on; completes once this node reads the presence
     * channel (its starting line), so an event committed after that reaches it.
     */
    CompletableFuture<Void> listen(String channel, Listener listener);

    void stopListening(String channel, Listener listener);
}
