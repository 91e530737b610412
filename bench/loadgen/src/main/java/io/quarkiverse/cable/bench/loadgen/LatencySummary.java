package io.quarkiverse.cable.bench.loadgen;

/** Percentiles of one measured duration, in milliseconds; all zero when nothing was measured. */
record LatencySummary(long count, double mean, double p50, double p95, double p99, double max) {

    static final LatencySummary EMPTY = new LatencySummary(0, 0, 0, 0, 0, 0);
}
