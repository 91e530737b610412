package io.quarkiverse.cable.bench.loadgen;

/**
 * Wall-clock milliseconds (what the k6 script's {@code Date.now()} gives) derived from {@link System#nanoTime()}: read
 * once, then advanced monotonically, so fan-out latencies are not bent by clock adjustments during a run and keep
 * sub-millisecond resolution on the receiving side. The publisher and the subscribers share one instance.
 */
final class EpochClock {

    private final long anchorNanos = System.nanoTime();
    private final long anchorEpochMillis = System.currentTimeMillis();

    double nowMillis() {
        return anchorEpochMillis + (System.nanoTime() - anchorNanos) / 1e6;
    }
}
