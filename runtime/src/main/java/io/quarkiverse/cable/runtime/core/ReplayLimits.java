package io.quarkiverse.cable.runtime.core;

import java.time.Duration;

/**
 * What recoveries may cost a node: read at startup (validated by {@code CableConfigCheck}).
 *
 * @param maxConcurrent history reads running against the database at once (their share of the pool)
 * @param maxQueued history reads waiting for that share; more are refused at once
 * @param queueTimeout how long a read waits for its share before it is refused
 * @param perConnection history steps one connection may have in flight
 * @param pageSize messages one history query reads
 */
public record ReplayLimits(int maxConcurrent, int maxQueued, Duration queueTimeout, int perConnection, int pageSize) {

    public static ReplayLimits from(CableRuntimeConfig config) {
        CableRuntimeConfig.History history = config.history();
        return new ReplayLimits(history.maxConcurrentReplays(), history.maxQueuedReplays(), history.queueTimeout(),
                history.maxReplaysPerConnection(), history.pageSize());
    }

    /** Defaults for components built outside a Quarkus application (tests of a second node, benchmarks). */
    public static ReplayLimits defaults() {
        return new ReplayLimits(4, 1000, Duration.ofSeconds(5), 32, 200);
    }

    /** The same limits with at most {@code concurrent} reads at once. */
    public ReplayLimits withMaxConcurrent(int concurrent) {
        return new ReplayLimits(concurrent, maxQueued, queueTimeout, perConnection, pageSize);
    }
}
