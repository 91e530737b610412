package io.quarkiverse.cable.runtime.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/** Trailing-edge debouncing with a timer the test fires by hand. */
class RefreshDebouncerTest {

    private final List<Runnable> scheduled = new ArrayList<>();
    private final List<Duration> delays = new ArrayList<>();
    private final List<Runnable> cancelled = new ArrayList<>();
    private final RefreshDebouncer debouncer = new RefreshDebouncer(Duration.ofMillis(500), (delay, task) -> {
        scheduled.add(task);
        delays.add(delay);
        return () -> cancelled.add(task);
    });

    @Test
    void theLastCallWinsAndEveryCallerSeesTheOneBroadcast() {
        AtomicInteger first = new AtomicInteger();
        AtomicInteger last = new AtomicInteger();
        CompletionStage<Void> a = debouncer.debounce("k", () -> count(first));
        CompletionStage<Void> b = debouncer.debounce("k", () -> count(last));
        assertThat(delays).containsOnly(Duration.ofMillis(500));
        assertThat(cancelled).containsExactly(scheduled.get(0));
        assertThat(debouncer.waiting()).isEqualTo(1);

        scheduled.get(0).run(); // a timer that fired although it was cancelled: superseded, does nothing
        assertThat(first.get() + last.get()).isZero();
        assertThat(a.toCompletableFuture()).isNotDone();

        scheduled.get(1).run();
        assertThat(first.get()).isZero();
        assertThat(last.get()).isEqualTo(1);
        assertThat(a.toCompletableFuture()).isCompleted();
        assertThat(b.toCompletableFuture()).isCompleted();
        assertThat(debouncer.waiting()).isZero();

        scheduled.get(1).run(); // firing twice sends nothing more
        assertThat(last.get()).isEqualTo(1);
    }

    @Test
    void keysAreIndependent() {
        AtomicInteger sent = new AtomicInteger();
        debouncer.debounce("x", () -> count(sent));
        debouncer.debounce("y", () -> count(sent));
        assertThat(cancelled).isEmpty();
        scheduled.forEach(Runnable::run);
        assertThat(sent.get()).isEqualTo(2);
    }

    @Test
    void aFailedBroadcastFailsEveryCaller() {
        CompletionStage<Void> a = debouncer.debounce("k",
                () -> CompletableFuture.failedFuture(new IllegalStateException("queue full")));
        CompletionStage<Void> b = debouncer.debounce("k", () -> {
            throw new IllegalStateException("thrown");
        });
        scheduled.get(1).run();
        assertThat(a.toCompletableFuture()).isCompletedExceptionally();
        assertThat(b.toCompletableFuture()).isCompletedExceptionally();
        assertThat(debouncer.waiting()).isZero();
    }

    @Test
    void theDefaultTimerFiresOnce() throws Exception {
        RefreshDebouncer real = RefreshDebouncer.withDefaultTimer();
        AtomicInteger sent = new AtomicInteger();
        CompletionStage<Void> done = null;
        for (int i = 0; i < 20; i++) {
            done = real.debounce("k", () -> count(sent));
        }
        done.toCompletableFuture().get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(sent.get()).as("calls in a tight loop coalesce").isBetween(1, 19);
        assertThat(real.waiting()).isZero();
    }

    private static CompletionStage<Void> count(AtomicInteger counter) {
        counter.incrementAndGet();
        return CompletableFuture.completedFuture(null);
    }
}
