package io.quarkiverse.cable.runtime.actioncable;

/**
 * A token bucket: {@code burst} at once, then {@code rate} per second on average. Not thread-safe; its owner
 * synchronizes.
 */
final class RateBucket {

    private final int rate;
    private final int burst;
    private double tokens;
    private long refilledNanos = System.nanoTime();

    RateBucket(int rate, int burst) {
        this.rate = rate;
        this.burst = burst;
        this.tokens = burst;
    }

    /** Whether one more may go now; takes its token when it may. */
    boolean take() {
        if (!hasToken()) {
            return false;
        }
        tokens--;
        return true;
    }

    /** Whether a token is there, without taking it (another bound may still refuse). */
    boolean hasToken() {
        long now = System.nanoTime();
        tokens = Math.min(burst, tokens + (now - refilledNanos) * rate / 1e9);
        refilledNanos = now;
        return tokens >= 1;
    }
}
