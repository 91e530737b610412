package io.quarkiverse.cable.runtime.core;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.spi.Replay;

/** What a recovering subscription does with its history step's outcome. */
public final class RecoveryOutcomes {

    private RecoveryOutcomes() {
    }

    /** Builds the outcome of one subscription, once it has started. */
    @FunctionalInterface
    public interface Factory {
        Recovery.Outcome create(LocalSubscription subscription, HeldDelivery held);
    }

    /**
     * The Java API's behaviour: replay then live, and confirm; a history that is not all there, or that could not
     * be read, ends the subscription with the reason.
     */
    public record EndOnFailure(String channel, int holdLimit) implements Factory {
        @Override
        public Recovery.Outcome create(LocalSubscription subscription, HeldDelivery held) {
            return new Recovery.Outcome() {
                @Override
                public void replayed(Replay replay) {
                    if (held.release(replay.messages(), () -> {
                    })) {
                        subscription.confirm();
                    } else {
                        subscription.end(new CableException.SlowConsumer(channel, holdLimit));
                    }
                }

                @Override
                public void unavailable(CableException.HistoryUnavailable reason) {
                    subscription.end(reason);
                }

                @Override
                public void failed(Exception failure) {
                    subscription.end(new CableException.StorageFailed("Cable could not read the history of '"
                            + channel + "': " + failure.getMessage(), failure));
                }
            };
        }
    }
}
