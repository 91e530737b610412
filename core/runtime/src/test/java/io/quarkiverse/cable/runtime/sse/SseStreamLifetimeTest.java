package io.quarkiverse.cable.runtime.sse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Every SSE stream ends within {@code sse.max-stream-duration} (the documented bound), at a point spread over the
 * limit's last quarter so that streams opened together do not reconnect together; 0 is no limit.
 */
class SseStreamLifetimeTest {

    private static final long MINUTE = TimeUnit.MINUTES.toNanos(1);

    private static SseSettings limit(long maxStreamNanos) {
        return new SseSettings(1 << 20, TimeUnit.SECONDS.toNanos(10), TimeUnit.SECONDS.toNanos(10), maxStreamNanos);
    }

    @Test
    void streamsEndSpreadOverTheLastQuarterOfTheLimitAndNeverAfterIt() {
        SseSettings settings = limit(2 * MINUTE);
        SplittableRandom random = new SplittableRandom(43);
        long shortest = Long.MAX_VALUE;
        long longest = 0;
        for (int i = 0; i < 10_000; i++) {
            long lifetime = settings.streamLifetimeNanos(random);
            assertThat(lifetime).isBetween(2 * MINUTE * 3 / 4, 2 * MINUTE);
            shortest = Math.min(shortest, lifetime);
            longest = Math.max(longest, lifetime);
        }
        // Spread over the whole quarter (30 s), not bunched: within a second of either end.
        assertThat(shortest).isLessThan(90 * TimeUnit.SECONDS.toNanos(1) + TimeUnit.SECONDS.toNanos(1));
        assertThat(longest).isGreaterThan(2 * MINUTE - TimeUnit.SECONDS.toNanos(1));
    }

    @Test
    void zeroIsNoLimit() {
        assertThat(limit(0).streamLifetimeNanos(new SplittableRandom(1))).isZero();
    }
}
