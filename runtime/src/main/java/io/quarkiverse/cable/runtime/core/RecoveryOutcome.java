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
