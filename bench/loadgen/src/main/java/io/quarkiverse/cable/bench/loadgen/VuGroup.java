package io.quarkiverse.cable.bench.loadgen;

import java.util.function.Function;

import io.vertx.core.Future;

/**
 * A k6 scenario executor: {@code vus} virtual users numbered from {@code firstVu}, starting together
 * {@code startAfterMs} after the run starts, each running {@code iteration} over and over. A new iteration starts only
 * while fewer than {@code durationMs} have passed since the group started and, when {@code iterationsPerVu} is not 0,
 * the virtual user has done fewer than that many; iterations still running {@code gracefulStopMs} after the duration
 * are interrupted.
 */
record VuGroup(int firstVu, int vus, long startAfterMs, int iterationsPerVu, long durationMs, long gracefulStopMs,
        Function<VirtualUser, Future<Void>> iteration) {

    /** k6 {@code constant-vus}: loop for {@code durationMs}. */
    static VuGroup constantVus(int firstVu, int vus, long durationMs, long gracefulStopMs,
            Function<VirtualUser, Future<Void>> iteration) {
        return new VuGroup(firstVu, vus, 0, 0, durationMs, gracefulStopMs, iteration);
    }

    /** k6 {@code per-vu-iterations} with one iteration each, bounded by {@code maxDuration}. */
    static VuGroup oneIterationEach(int firstVu, int vus, long startAfterMs, long maxDurationMs, long gracefulStopMs,
            Function<VirtualUser, Future<Void>> iteration) {
        return new VuGroup(firstVu, vus, startAfterMs, 1, maxDurationMs, gracefulStopMs, iteration);
    }

    /** Since the run started, when this group's iterations still running are interrupted. */
    long interruptAfterMs() {
        return startAfterMs + durationMs + gracefulStopMs;
    }

    boolean mayStartIteration(VirtualUser vu, long groupStartNanos, long nowNanos) {
        return (iterationsPerVu == 0 || vu.iteration() < iterationsPerVu)
                && nowNanos - groupStartNanos < durationMs * 1_000_000L;
    }
}
