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
        replay(subscription, request, ReplayQuota.NONE, outcome);
    }

    /**
     * Runs the history step of {@code subscription} as one of its connection's {@code quota}: a connection with as
     * many steps in flight as it may have is refused ({@code CONNECTION_LIMIT}) without reading anything. A client's
     * replay also takes its share of the node's {@link ReplayBudget} (its place before the read, its bytes after):
     * without room it is refused as {@code BUSY}, and what it took is given back as the front end writes the replay,
     * or when the subscription ends.
     */
    void replay(LocalSubscription subscription, HistoryRequest request, ReplayQuota quota, RecoveryOutcome outcome) {
        CableThreads.startVirtual("cable-history", () -> {
            try {
                quota.acquire(subscription.channel(), request);
            } catch (CableException.HistoryUnavailable e) {
                stats.replayRejected(e.reason());
                outcome.unavailable(e);
                return;
            }
            try {
                step(subscription, request, quota.budget(), outcome);
            } finally {
                quota.release();
            }
        });
    }

    private void step(LocalSubscription subscription, HistoryRequest request, ReplayBudget budget,
            RecoveryOutcome outcome) {
        boolean budgeted = budget != null && !(request instanceof HistoryRequest.PositionOnly);
        ReplayBudget.Lease lease = null;
        if (budgeted) {
            lease = budget.tryStart();
            if (lease == null) {
                overBudget(subscription, request, budget, outcome);
                return;
            }
            // However the subscription ends (the client went away, a slow consumer, a failure while writing), the
            // replay's share goes back with it: a front end that stops writing cannot leak the node's budget.
            ReplayBudget.Lease taken = lease;
            subscription.closed().whenComplete((ignored, failure) -> taken.close());
        }
        Replay replay;
        try {
            replay = source.replay(subscription.channel(), subscription.channelHash(), request,
                    subscription.startingLine());
        } catch (CableException.HistoryUnavailable e) {
            close(lease);
            stats.replayRejected(e.reason());
            outcome.unavailable(e);
            return;
        } catch (Exception e) {
            close(lease);
            stats.replayFailed();
            outcome.failed(e);
            return;
        }
        if (!subscription.isOpen()) {
            // Ended while its history was read (the client went away, a slow consumer): its share went back with
            // it, and the admission below would fail for that, not for the budget. The front end still gets an
            // answer (a group of streams waits for every one), counted as nothing: no replay was refused or served.
            close(lease);
            outcome.unavailable(new CableException.HistoryUnavailable(subscription.channel(), request.asked(),
                    CableException.HistoryUnavailable.Reason.BUSY, "the subscription ended while its history was read"));
            return;
        }
        if (budgeted && !lease.admit(replay.messages())) {
            lease.close();
            overBudget(subscription, request, budget, outcome);
            return;
        }
        if (!(request instanceof HistoryRequest.PositionOnly)) {
            stats.replayServed(replay.messages().size());
        }
        ReplayLease handed = lease == null ? ReplayLease.NONE : lease;
        try {
            outcome.replayed(replay, handed);
        } catch (RuntimeException | Error e) {
            handed.close();
            throw e;
        }
    }

    private void overBudget(LocalSubscription subscription, HistoryRequest request, ReplayBudget budget,
            RecoveryOutcome outcome) {
        stats.replayOverBudget();
        stats.replayRejected(CableException.HistoryUnavailable.Reason.BUSY);
        outcome.unavailable(new CableException.HistoryUnavailable(subscription.channel(), request.asked(),
                CableException.HistoryUnavailable.Reason.BUSY, "the node has quarkus.cable.history"
                        + ".max-replay-bytes-in-flight (" + budget.maxBytes() + " bytes) or max-replays-in-flight ("
                        + budget.maxReplays() + ") of replays in flight"));
    }

    private static void close(ReplayLease lease) {
        if (lease != null) {
            lease.close();
        }
    }
}
