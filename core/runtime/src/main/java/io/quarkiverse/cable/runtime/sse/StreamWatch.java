package io.quarkiverse.cable.runtime.sse;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.quarkiverse.cable.spi.CableThreads;

/**
 * Looks at every open SSE stream four times a second: hands the stalled ones (events waiting, none written for the
 * stall timeout) to their handlers, so a client that stopped reading after its last event is closed without waiting
 * for another broadcast that may never come; ends the ones whose time is up (their credentials expired, or they
 * lasted {@code sse.max-stream-duration}); and queues a heartbeat on the quiet ones (nothing written for the heartbeat
 * interval), so that a client that vanished has something the network must deliver: a heartbeat that cannot be
 * written stalls the stream like any event. One daemon thread for the process, started with the first stream; a look
 * at a stream with nothing waiting is a few comparisons.
 */
final class StreamWatch {

    /**
     * A stream being watched, what to do when it stalls, and when its time is up ({@code System.nanoTime()} scale)
     * with what to do then ({@code onEnd} null: never). An ended stream stays watched until its last events are
     * written: an end its client does not take stalls like any event, and is reset.
     */
    static final class Watched {
        final SseOutbox outbox;
        final Runnable onStall;
        final long endsAtNanos;
        final Runnable onEnd;
        /** Read and written by the watch's thread only. */
        private boolean ended;

        Watched(SseOutbox outbox, Runnable onStall, long endsAtNanos, Runnable onEnd) {
            this.outbox = outbox;
            this.onStall = onStall;
            this.endsAtNanos = endsAtNanos;
            this.onEnd = onEnd;
        }
    }

    private static final long PERIOD_MILLIS = 250;
    private static final Set<Watched> WATCHED = ConcurrentHashMap.newKeySet();
    private static volatile ScheduledExecutorService timer;

    private StreamWatch() {
    }

    static Watched watch(SseOutbox outbox, Runnable onStall, long endsAtNanos, Runnable onEnd) {
        Watched watched = new Watched(outbox, onStall, endsAtNanos, onEnd);
        WATCHED.add(watched);
        if (timer == null) {
            start();
        }
        return watched;
    }

    static void unwatch(Watched watched) {
        WATCHED.remove(watched);
    }

    private static synchronized void start() {
        if (timer != null) {
            return;
        }
        ScheduledExecutorService created = CableThreads.timer(CableThreads.daemon("cable-sse-watch"));
        created.scheduleWithFixedDelay(StreamWatch::check, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        timer = created;
    }

    private static void check() {
        long now = System.nanoTime();
        for (Watched watched : WATCHED) {
            try {
                if (watched.outbox.isDone()) {
                    WATCHED.remove(watched);
                } else if (watched.outbox.stalled(now)) {
                    WATCHED.remove(watched);
                    watched.onStall.run();
                } else if (!watched.ended && watched.onEnd != null && now - watched.endsAtNanos >= 0) {
                    watched.ended = true;
                    watched.onEnd.run();
                } else if (watched.outbox.quiet(now)) {
                    // Over the byte bound the offer is refused, and then the stream is anything but quiet.
                    watched.outbox.offer(TextEvent.HEARTBEAT);
                }
            } catch (RuntimeException e) {
                // One stream's failure must not stop the watch of the others.
                WATCHED.remove(watched);
            }
        }
    }
}
