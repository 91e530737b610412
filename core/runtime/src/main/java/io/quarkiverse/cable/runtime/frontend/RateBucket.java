package io.quarkiverse.cable.runtime.frontend;

/**
 * A token bucket: {@code burst} at once, then {@code rate} per second on average. Counted either one token a time
 * ({@link #take}: commands, whispers) or charged after the fact ({@link #solvent} before the work, {@link #charge} its
 * size once known: bytes of answers), where a charge may leave a debt that later refills repay. Not thread-safe; its
 * owner synchronizes.
 */
public final class RateBucket {

    private final long rate;
    private final long burst;
    private double tokens;
    private long refilledNanos = System.nanoTime();

    public RateBucket(long rate, long burst) {
        this.rate = rate;
        this.burst = burst;
        this.tokens = burst;
    }

    /** Whether one more may go now; takes its token when it may. */
    public boolean take() {
        if (!hasToken()) {
            return false;
        }
        tokens--;
        return true;
    }

    /** Whether a token is there, without taking it (another bound may still refuse). */
    public boolean hasToken() {
        refill();
        return tokens >= 1;
    }

    /**
     * Whether the bucket is not in debt: one more piece of work whose size is known only afterwards may start. A piece
     * larger than the whole burst still goes when the bucket is full; the ones after it wait until the debt is repaid,
     * so over {@code t} seconds at most {@code rate * t + burst} plus one piece goes.
     */
    public boolean solvent() {
        refill();
        return tokens > 0;
    }

    /** Charges what admitted work came to; the bucket may go below zero (a debt). */
    public void charge(long amount) {
        tokens -= amount;
    }

    /** Whether the bucket holds its whole burst again: it is then no different from a new one. */
    public boolean full() {
        refill();
        return tokens >= burst;
    }

    private void refill() {
        long now = System.nanoTime();
        tokens = Math.min(burst, tokens + (now - refilledNanos) * rate / 1e9);
        refilledNanos = now;
    }
}
