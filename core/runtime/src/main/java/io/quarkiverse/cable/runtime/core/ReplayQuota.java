package io.quarkiverse.cable.runtime.core;

import java.util.concurrent.atomic.AtomicInteger;

import io.quarkiverse.cable.CableException.HistoryUnavailable;
import io.quarkiverse.cable.CableException.HistoryUnavailable.Reason;
import io.quarkiverse.cable.spi.HistoryRequest;

/**
 * One connection's share of history steps in flight ({@code quarkus.cable.history.max-replays-per-connection}): made by
 * {@link CableEngine#newReplayQuota} and handed back with each of the connection's recovering subscriptions; the front
 * end only holds it, the core counts the steps (reading, waiting for a read, or joined to another's read). A connection
 * at its limit is refused with {@link Reason#CONNECTION_LIMIT}, so one client cannot fill the node's queue of reads by
 * itself. A client's quota also draws on the node's {@link ReplayBudget}; the Java API's ({@link #NONE}) does not.
 */
public final class ReplayQuota {

    /** For subscriptions that belong to no connection (the Java API; an SSE stream is one step by itself). */
    static final ReplayQuota NONE = new ReplayQuota(Integer.MAX_VALUE, null);

    private final AtomicInteger inFlight = new AtomicInteger();
    private final int limit;
    /** The node's budget this client's replays draw on; null: none (the Java API's). */
    private final ReplayBudget budget;

    ReplayQuota(int limit, ReplayBudget budget) {
        this.limit = limit;
        this.budget = budget;
    }

    /** The node's budget of replays in flight these steps draw on, or null. */
    ReplayBudget budget() {
        return budget;
    }

    /** Takes one step; the caller must {@link #release()} it when the step reported. */
    void acquire(String channel, HistoryRequest request) {
        if (this == NONE) {
            return;
        }
        if (inFlight.incrementAndGet() > limit) {
            inFlight.decrementAndGet();
            throw new HistoryUnavailable(channel, request.asked(), Reason.CONNECTION_LIMIT,
                    "the connection has quarkus.cable.history.max-replays-per-connection (" + limit
                            + ") history steps in flight");
        }
    }

    void release() {
        if (this != NONE) {
            inFlight.decrementAndGet();
        }
    }
}
