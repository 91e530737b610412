package io.quarkiverse.cable;

/**
 * Receives the messages of one {@link Subscription}, one at a time, in channel order, on a virtual thread.
 */
@FunctionalInterface
public interface CableListener {

    void onMessage(CableMessage message);
}
