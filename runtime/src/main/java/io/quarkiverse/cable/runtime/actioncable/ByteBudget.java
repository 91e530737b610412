package io.quarkiverse.cable.runtime.actioncable;

/**
 * Bytes per second a connection may make the server build for it, charged after the fact: what is asked is admitted
 * while the budget is not overdrawn and its size charged once known, so a single answer larger than a second's budget
 * still goes (a big room's presence) and the ones after it wait until the debt is repaid. Over any span of {@code t}
 * seconds it admits at most {@code rate * (t + 1)} bytes plus one answer. Not thread-safe; its owner synchronizes.
 */
final class ByteBudget {

    private final long rate;
    private double available;
    private long refilledNanos = System.nanoTime();

    ByteBudget(long bytesPerSecond) {
        this.rate = bytesPerSecond;
        this.available = bytesPerSecond;
    }

    /** Whether the budget is not overdrawn, that is, whether one more answer may be built now. */
    boolean admits() {
        long now = System.nanoTime();
        available = Math.min(rate, available + (now - refilledNanos) * rate / 1e9);
        refilledNanos = now;
        return available > 0;
    }

    /** Charges what an admitted answer came to (the budget may go below zero: a debt). */
    void charge(long bytes) {
        available -= bytes;
    }
}
