package io.quarkiverse.cable.runtime.core;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.spi.CableThreads;
import io.quarkiverse.cable.spi.HistoryRequest;
import io.quarkiverse.cable.spi.HistorySource;
import io.quarkiverse.cable.spi.Replay;

/**
 * The history step of a recovering subscription: once its starting line is recorded, reads what it missed on a
 * virtual thread (never on the poller or an event loop) and reports the outcome. Counts replays served, refused (by
 * reason) and failed.
 */
final class Recovery {

    private final HistorySource source;
    private final CableStats stats;

    Recovery(HistorySource source, CableStats stats) {
        this.source = source;
        this.stats = stats;
    }

    /** Runs the history step of {@code subscription}, which must have started (its starting line is set). */
    void replay(LocalSubscription subscription, HistoryRequest request, RecoveryOutcome outcome) {
        replay(subscription, request, StepQuota.NONE, outcome);
    }

    /**
     * Runs the history step of {@code subscription} as one of its connection's {@code quota}: a connection with as
     * many steps in flight as it may have is refused ({@code CONNECTION_LIMIT}) without reading anything.
     */
    void replay(LocalSubscription subscription, HistoryRequest request, StepQuota quota, RecoveryOutcome outcome) {
        CableThreads.startVirtual("cable-history", () -> {
            try {
                quota.acquire(subscription.channel(), request);
            } catch (CableException.HistoryUnavailable e) {
                stats.replayRejected(e.reason());
                outcome.unavailable(e);
                return;
            }
            try {
                step(subscription, request, outcome);
            } finally {
                quota.release();
            }
        });
    }

    private void step(LocalSubscription subscription, HistoryRequest request, RecoveryOutcome outcome) {
        Replay replay;
        try {
            replay = source.replay(subscription.channel(), subscription.channelHash(), request,
                    subscription.startingLine());
        } catch (CableException.HistoryUnavailable e) {
            stats.replayRejected(e.reason());
            outcome.unavailable(e);
            return;
        } catch (Exception e) {
            stats.replayFailed();
            outcome.failed(e);
            return;
        }
        if (!(request instanceof HistoryRequest.PositionOnly)) {
            stats.replayServed(replay.messages().size());
        }
        outcome.replayed(replay);
    }
}
