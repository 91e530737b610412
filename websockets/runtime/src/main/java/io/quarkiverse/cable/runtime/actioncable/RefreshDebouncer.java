package io.quarkiverse.cable.runtime.actioncable;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.quarkiverse.cable.spi.CableThreads;

/**
 * Server-side debouncing of Turbo 8 refreshes, as turbo-rails' {@code broadcast_refresh_later_to} does: repeated
 * refreshes of one stream (with one request id) within {@link #DEFAULT_DELAY} of each other become one broadcast,
 * sent {@code DEFAULT_DELAY} after the last of them (trailing edge). A bulk change of many records then costs each page
 * one reload instead of one per record. Every caller of a coalesced group gets the outcome of the one broadcast.
 * <p>
 * turbo-rails keeps its debouncers per thread (per request); this one is per node, so refreshes from concurrent
 * requests coalesce as well.
 */
final class RefreshDebouncer {

    /** turbo-rails' default debounce delay. */
    static final Duration DEFAULT_DELAY = Duration.ofMillis(500);

    /** Runs a task later; the handle cancels it. */
    interface Timer {
        Runnable schedule(Duration delay, Runnable task);
    }

    private static final class Pending {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        Runnable cancel;
        long generation;
        Supplier<? extends CompletionStage<Void>> broadcast;
    }

    private final Duration delay;
    private final Timer timer;
    private final Map<String, Pending> pending = new HashMap<>(); // guarded by this

    RefreshDebouncer(Duration delay, Timer timer) {
        this.delay = delay;
        this.timer = timer;
    }

    /**
     * The debouncer turbo-rails' delay calls for, on a timer thread (virtual) that exists only while refreshes wait.
     */
    static RefreshDebouncer withDefaultTimer() {
        ScheduledThreadPoolExecutor executor = CableThreads.timer(CableThreads.virtual("cable-turbo-refresh"));
        executor.setKeepAliveTime(10, TimeUnit.SECONDS);
        executor.allowCoreThreadTimeOut(true);
        executor.setRemoveOnCancelPolicy(true);
        return new RefreshDebouncer(DEFAULT_DELAY, (after, task) -> {
            var future = executor.schedule(task, after.toNanos(), TimeUnit.NANOSECONDS);
            return () -> future.cancel(false);
        });
    }

    /**
     * Schedules {@code broadcast} for {@code key} (stream name and request id), replacing a refresh of the same key
     * still waiting. Completes with the outcome of the broadcast that finally runs.
     */
    CompletionStage<Void> debounce(String key, Supplier<? extends CompletionStage<Void>> broadcast) {
        Pending entry;
        synchronized (this) {
            entry = pending.computeIfAbsent(key, ignored -> new Pending());
            if (entry.cancel != null) {
                entry.cancel.run();
            }
            long generation = ++entry.generation;
            entry.broadcast = broadcast;
            Pending scheduled = entry;
            entry.cancel = timer.schedule(delay, () -> fire(key, scheduled, generation));
        }
        return entry.done.minimalCompletionStage();
    }

    /** Refreshes waiting to be broadcast. */
    synchronized int waiting() {
        return pending.size();
    }

    private void fire(String key, Pending entry, long generation) {
        Supplier<? extends CompletionStage<Void>> broadcast;
        synchronized (this) {
            // A later refresh of the key replaced this timer (its cancel may have come too late to stop it).
            if (pending.get(key) != entry || entry.generation != generation) {
                return;
            }
            pending.remove(key);
            broadcast = entry.broadcast;
        }
        try {
            broadcast.get().whenComplete((ignored, failure) -> {
                if (failure != null) {
                    entry.done.completeExceptionally(failure);
                } else {
                    entry.done.complete(null);
                }
            });
        } catch (RuntimeException e) {
            entry.done.completeExceptionally(e);
        }
    }
}
