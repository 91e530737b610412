package io.quarkiverse.cable.runtime.core;

import io.quarkiverse.cable.CableMessage;

/**
 * How a subscription hands messages on: to a listener's mailbox drained on a virtual thread
 * ({@link OrderedMailbox}), or straight to a non-blocking sink on the dispatching thread (WebSocket writes).
 */
public interface Delivery {

    /** Accepts the next message in channel order; false when the receiver is too far behind (a slow consumer). */
    boolean offer(CableMessage message);

    /** Drops whatever is still waiting; the subscription ended. */
    void discard();

    /** How far behind the receiver may fall, for the slow-consumer message. */
    int limit();
}
