package io.quarkiverse.cable.spi;

import io.quarkiverse.cable.CableMessage;

/**
 * This node's subscribers, as an adapter sees them: where it dispatches what it ordered, and which channels it has to
 * read. Subscriptions join through {@link PendingSubscription#startAt}, never here. The core implements it.
 */
public interface Subscribers {

    /**
     * Hands one message to every local subscriber of its channel (the same instance to each: decoded once). Returns
     * how many took it.
     */
    default int dispatch(long channelHash, CableMessage message) {
        return dispatch(channelHash, message, null);
    }

    /**
     * {@link #dispatch(long, CableMessage)}, except to the subscriptions of session {@code excludedSession} (a
     * broadcast "to others", {@link ExcludedSession}); null excludes nobody.
     */
    int dispatch(long channelHash, CableMessage message, String excludedSession);

    /** The hashes of the channels with at least one local subscriber, sorted; a shared array, not to be changed. */
    long[] channelHashes();

    int channelCount();

    /** Ends every subscription with {@code cause}; when the adapter stops. */
    void endAll(Throwable cause);
}
