package io.quarkiverse.cable.runtime.core;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.spi.Replay;

/**
 * The Java API's recovering subscription: replay then live, and confirm; a history that is not all there, or that
 * could not be read, ends the subscription with the reason.
 */
final class EndOnFailure implements RecoveryOutcome {

    static final RecoveryOutcome.Factory FACTORY = EndOnFailure::new;

    private final LocalSubscription subscription;

    private EndOnFailure(LocalSubscription subscription) {
        this.subscription = subscription;
    }

    @Override
    public void replayed(Replay replay) {
        if (subscription.goLive(replay.messages(), () -> {
        })) {
            subscription.confirm();
        }
    }

    @Override
    public void unavailable(CableException.HistoryUnavailable reason) {
        subscription.end(reason);
    }

    @Override
    public void failed(Exception failure) {
        subscription.end(new CableException.StorageFailed("Cable could not read the history of '"
                + subscription.channel() + "': " + failure.getMessage(), failure));
    }
}
