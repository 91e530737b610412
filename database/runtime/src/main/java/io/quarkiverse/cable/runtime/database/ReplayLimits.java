package io.quarkiverse.cable.runtime.database;

import java.time.Duration;

import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;

/**
 * What history reads may cost a node: read at startup (validated by {@code CableConfigCheck}). The share per
 * connection is the core's ({@code ReplayQuota}).
 *
 * @param maxConcurrent history reads running against the database at once (their share of the pool)
 * @param maxQueued history reads waiting for that share; more are refused at once
 * @param queueTimeout how long a read waits for its share before it is refused
 * @param pageSize messages one history query reads
 */
record ReplayLimits(int maxConcurrent, int maxQueued, Duration queueTimeout, int pageSize) {

    static ReplayLimits from(CableRuntimeConfig config) {
        CableRuntimeConfig.History history = config.history();
        return new ReplayLimits(history.maxConcurrentReplays(), history.maxQueuedReplays(), history.queueTimeout(),
                history.pageSize());
    }

    /** The same limits with at most {@code concurrent} reads at once. */
    ReplayLimits withMaxConcurrent(int concurrent) {
        return new ReplayLimits(concurrent, maxQueued, queueTimeout, pageSize);
    }
}
