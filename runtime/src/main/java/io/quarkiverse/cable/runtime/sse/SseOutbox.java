package io.quarkiverse.cable.runtime.sse;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;

import jakarta.ws.rs.sse.OutboundSseEvent;

import io.quarkiverse.cable.CableMessage;

/**
 * What one SSE stream has waiting for its client, bounded in bytes, handed to Quarkus REST as it asks for events
 * (it asks for the next one when the previous one was written to the socket, so a client that stops reading stops
 * the demand and the events wait here).
 * <p>
 * Live events are the broadcasts' shared events ({@link SharedEvents}), counted at their size; over
 * {@code maxPendingBytes} the stream is a slow consumer. A replay is not copied: the stream keeps a cursor into the
 * (shared, bounded by {@code max-replay}) replay and builds each event when it is asked for. Nothing is allocated
 * until the first event waits, so an idle stream costs a few small objects.
 * <p>
 * A replay is written in chunks. Handed to Quarkus REST one event at a time, each message is one formatting, one write
 * and one flush (a system call) on the connection's event loop, and Quarkus REST asks for the next event from the
 * completion of the previous write, which is synchronous when the socket takes the bytes: a whole replay ran in one
 * task of the event loop, and every other connection of that event loop (a healthy client's live event among them)
 * waited behind it, behind all of them in a storm of replays. So once Quarkus REST has written the response's head, a
 * replay goes out as chunks of up to {@link #REPLAY_CHUNK} events or {@link #REPLAY_CHUNK_CHARS} characters, each one
 * write of the response ({@link ReplayWriter}), the next chunk written when the previous one went to the socket: a
 * new task each, queued behind what the event loop already has to do. One chunk at most is in flight per stream, on
 * top of the byte bound of its live events. Without a writer (no HTTP request), or before the head is written, replay
 * events go to Quarkus REST, and after {@link #REPLAY_CHUNK} of them the rest continues in a new task of the stream's
 * context ({@code yielder}).
 */
final class SseOutbox implements Flow.Publisher<OutboundSseEvent>, Flow.Subscription {

    /** A replay being handed over: the shared messages and the next one's index. */
    private static final class ReplayCursor {
        final List<CableMessage> messages;
        int next;

        ReplayCursor(List<CableMessage> messages) {
            this.messages = messages;
        }
    }

    /** What the stream does when it is subscribed, cancelled or stalled. */
    interface Lifecycle {
        /** Quarkus REST subscribed: start the cable subscription. */
        void started(SseOutbox outbox);

        /** The client went away or the stream ended: end the cable subscription. */
        void cancelled();
    }

    /** Replay events handed over in one go before the rest of the replay waits for a new task. */
    static final int REPLAY_CHUNK = 32;
    /** The characters of one written chunk of a replay, at most (past it, the chunk ends after its current event). */
    static final int REPLAY_CHUNK_CHARS = 16 * 1024;

    private final long maxPendingBytes;
    private final long stallTimeoutNanos;
    private final Lifecycle lifecycle;
    /** Where the rest of a replay continues after a chunk (the request's Vert.x context); null: no chunks. */
    private final Executor yielder;
    /** Writes replay chunks to the response; null: replay events go to Quarkus REST one by one. */
    private final ReplayWriter writer;
    private boolean resumePending;
    /** A replay chunk written and not yet on the socket: nothing else is handed over meanwhile. */
    private boolean chunkInFlight;
    private Flow.Subscriber<? super OutboundSseEvent> subscriber;
    private ArrayDeque<Object> queue;
    private long pendingBytes;
    private long demand;
    private boolean draining;
    private boolean again;
    private boolean completing;
    private Throwable failing;
    private boolean done;
    private volatile long progressNanos = System.nanoTime();

    SseOutbox(SseSettings settings, Lifecycle lifecycle, Executor yielder, ReplayWriter writer) {
        this.maxPendingBytes = settings.maxPendingBytes();
        this.stallTimeoutNanos = settings.stallTimeoutNanos();
        this.lifecycle = lifecycle;
        this.yielder = yielder;
        this.writer = writer;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super OutboundSseEvent> subscriber) {
        synchronized (this) {
            if (this.subscriber != null) {
                subscriber.onSubscribe(this);
                subscriber.onError(new IllegalStateException("A cable event stream has one subscriber"));
                return;
            }
            this.subscriber = subscriber;
        }
        subscriber.onSubscribe(this);
        lifecycle.started(this);
    }

    /** Queues a live event; false when that would put more than the bound waiting (a slow consumer). */
    boolean offer(TextEvent event) {
        long size = SharedEvents.size(event);
        synchronized (this) {
            if (done) {
                return true;
            }
            if (pendingBytes + size > maxPendingBytes) {
                return false;
            }
            enqueue(event);
            pendingBytes += size;
        }
        drain();
        return true;
    }

    /** Queues a replay (not copied), to be handed over before anything queued after it. */
    void replay(List<CableMessage> messages) {
        if (messages.isEmpty()) {
            return;
        }
        synchronized (this) {
            if (done) {
                return;
            }
            enqueue(new ReplayCursor(messages));
        }
        drain();
    }

    /** Completes the stream once everything queued is handed over. */
    void complete() {
        synchronized (this) {
            completing = true;
        }
        drain();
    }

    /** Ends the stream with {@code failure} at once, dropping what waits. */
    void fail(Throwable failure) {
        synchronized (this) {
            if (done) {
                return;
            }
            failing = failure;
            dropQueue();
        }
        drain();
    }

    /** Ends the stream without telling the subscriber (its connection is being closed under it). */
    void abandon() {
        synchronized (this) {
            done = true;
            dropQueue();
        }
    }

    /** True when events have waited without one being written for the stall timeout. */
    boolean stalled(long now) {
        synchronized (this) {
            return !done && queue != null && !queue.isEmpty() && now - progressNanos > stallTimeoutNanos;
        }
    }

    synchronized boolean isDone() {
        return done;
    }

    synchronized long pendingBytes() {
        return pendingBytes;
    }

    @Override
    public void request(long n) {
        if (n <= 0) {
            fail(new IllegalArgumentException("Reactive Streams rule 3.9: request must be positive, was " + n));
            return;
        }
        synchronized (this) {
            demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
        }
        drain();
    }

    @Override
    public void cancel() {
        synchronized (this) {
            if (done) {
                return;
            }
            done = true;
            dropQueue();
        }
        lifecycle.cancelled();
    }

    private void enqueue(Object item) {
        if (queue == null) {
            queue = new ArrayDeque<>(4);
        }
        if (queue.isEmpty()) {
            // The stall clock starts when something starts waiting, not at the end of an earlier burst.
            progressNanos = System.nanoTime();
        }
        queue.add(item);
    }

    private void dropQueue() {
        queue = null;
        pendingBytes = 0;
    }

    /**
     * Hands over what is asked for, outside the lock (the subscriber may ask for more from inside onNext); one
     * thread drains at a time, and a call that finds another draining makes it look again.
     */
    private void drain() {
        synchronized (this) {
            if (draining) {
                again = true;
                return;
            }
            draining = true;
        }
        int replayed = 0;
        while (true) {
            OutboundSseEvent next = null;
            Throwable failure = null;
            boolean finish = false;
            boolean yielding = false;
            StringBuilder chunk = null;
            // Asked outside the lock: the response has locks of its own.
            boolean writable = writer != null && writer.ready();
            Flow.Subscriber<? super OutboundSseEvent> target;
            synchronized (this) {
                target = subscriber;
                if (done || target == null) {
                    draining = false;
                    return;
                }
                if (failing != null) {
                    failure = failing;
                    done = true;
                } else if (chunkInFlight) {
                    // The chunk's completion drains again.
                    draining = false;
                    again = false;
                    return;
                } else if (writable && queue != null && !queue.isEmpty() && demand > 0
                        && queue.peek() instanceof ReplayCursor) {
                    // Quarkus REST waits for its next event (demand), so it writes nothing meanwhile: the chunk
                    // goes out between its writes, in order.
                    chunk = takeChunk();
                    chunkInFlight = true;
                    progressNanos = System.nanoTime();
                    draining = false;
                    again = false;
                } else if (queue != null && !queue.isEmpty() && demand > 0 && yielder != null
                        && queue.peek() instanceof ReplayCursor && replayed >= REPLAY_CHUNK) {
                    // A chunk of the replay was handed over: the rest waits for a new task, behind the others.
                    draining = false;
                    again = false;
                    if (resumePending) {
                        return;
                    }
                    resumePending = true;
                    yielding = true;
                } else if (queue != null && !queue.isEmpty() && demand > 0) {
                    if (queue.peek() instanceof ReplayCursor) {
                        replayed++;
                    }
                    next = take();
                    demand--;
                    progressNanos = System.nanoTime();
                } else if (completing && (queue == null || queue.isEmpty())) {
                    finish = true;
                    done = true;
                } else if (again) {
                    again = false;
                    continue;
                } else {
                    draining = false;
                    return;
                }
            }
            if (yielding) {
                resumeLater();
                return;
            }
            if (chunk != null) {
                writer.write(chunk, this::chunkWritten, this::chunkFailed);
                return;
            }
            if (failure != null) {
                lifecycle.cancelled();
                target.onError(failure);
            } else if (finish) {
                lifecycle.cancelled();
                target.onComplete();
            } else {
                target.onNext(next);
            }
        }
    }

    /** The next chunk of the replay at the head of the queue, taken off it. */
    private StringBuilder takeChunk() {
        ReplayCursor cursor = (ReplayCursor) queue.peek();
        StringBuilder chunk = new StringBuilder(Math.min(REPLAY_CHUNK_CHARS + 1024, 4096));
        int events = 0;
        while (cursor.next < cursor.messages.size() && events < REPLAY_CHUNK && chunk.length() < REPLAY_CHUNK_CHARS) {
            ReplayWriter.append(chunk, SharedEvents.of(cursor.messages.get(cursor.next++)));
            events++;
        }
        if (cursor.next == cursor.messages.size()) {
            queue.poll();
        }
        return chunk;
    }

    private void chunkWritten() {
        synchronized (this) {
            chunkInFlight = false;
            progressNanos = System.nanoTime();
        }
        drain();
    }

    private void chunkFailed(Throwable failure) {
        // The connection is gone (Quarkus REST's next write or its close handler ends the stream): nothing more for it.
        synchronized (this) {
            chunkInFlight = false;
        }
        fail(failure);
    }

    private void resumeLater() {
        try {
            yielder.execute(this::resume);
        } catch (RejectedExecutionException e) {
            // The context no longer takes tasks (shutting down): the stream continues on a thread of its own.
            Thread.ofVirtual().name("cable-sse-replay").start(this::resume);
        }
    }

    private void resume() {
        synchronized (this) {
            resumePending = false;
        }
        drain();
    }

    private OutboundSseEvent take() {
        Object head = queue.peek();
        if (head instanceof ReplayCursor cursor) {
            CableMessage message = cursor.messages.get(cursor.next++);
            if (cursor.next == cursor.messages.size()) {
                queue.poll();
            }
            return SharedEvents.of(message);
        }
        queue.poll();
        TextEvent event = (TextEvent) head;
        pendingBytes -= SharedEvents.size(event);
        return event;
    }
}
