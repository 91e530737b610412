package io.quarkiverse.cable.runtime.core;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.spi.Replay;

/**
 * What a front end does with a recovering subscription's history step. Exactly one method is called, on the step's
 * virtual thread; each ends by taking the subscription live ({@link LocalSubscription#goLive}) or ending it.
 */
public interface RecoveryOutcome {

    /**
     * The whole history, in position order (possibly empty: nothing was missed), and the position live delivery
     * continues from.
     */
    void replayed(Replay replay);

    /**
     * {@link #replayed(Replay)} for a replay that holds {@code lease} of the node's replay budget: a front end that
     * writes the replay to a client reports each message as it hands it to the socket, and closes the lease when it
     * is done. By default the replay is handed over whole and the lease given back at once.
     */
    default void replayed(Replay replay, ReplayLease lease) {
        try {
            replayed(replay);
        } finally {
            lease.close();
        }
    }

    /** The history is not all there; nothing of it is replayed. */
    void unavailable(CableException.HistoryUnavailable reason);

    /** The history could not be read (database failure). */
    void failed(Exception failure);

    /** Builds the outcome of one subscription once it has started (its starting line is recorded). */
    @FunctionalInterface
    interface Factory {
        RecoveryOutcome create(LocalSubscription subscription);
    }
}
