package io.quarkiverse.cable.runtime.sse;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Flow;

import jakarta.ws.rs.sse.OutboundSseEvent;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.runtime.core.ReplayLease;

/**
 * What one SSE stream has waiting for its client, bounded in bytes, handed to Quarkus REST as it asks for events
 * (it asks for the next one when the previous one was written to the socket, so a client that stops reading stops
 * the demand and the events wait here).
 * <p>
 * Live events are the broadcasts' shared events ({@link SharedEvents}), counted at their size; over
 * {@code maxPendingBytes} the stream is a slow consumer. A replay is not copied: the stream keeps a cursor into the
 * (shared, bounded by {@code max-replay}) replay and builds each event when it is asked for. Nothing is allocated
 * until the first event waits, so an idle stream costs a few small objects.
 */
final class SseOutbox implements Flow.Publisher<OutboundSseEvent>, Flow.Subscription {

    /** A replay being handed over: the shared messages, the next one's index, and its share of the node's budget. */
    private static final class ReplayCursor {
        final List<CableMessage> messages;
        final ReplayLease lease;
        int next;

        ReplayCursor(List<CableMessage> messages, ReplayLease lease) {
            this.messages = messages;
            this.lease = lease;
        }
    }

    /** What the stream does when it is subscribed, cancelled or stalled. */
    interface Lifecycle {
        /** Quarkus REST subscribed: start the cable subscription. */
        void started(SseOutbox outbox);

        /** The client went away or the stream ended: end the cable subscription. */
        void cancelled();
    }

    private final long maxPendingBytes;
    private final long stallTimeoutNanos;
    private final long heartbeatNanos;
    private final Lifecycle lifecycle;
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

    SseOutbox(SseSettings settings, Lifecycle lifecycle) {
        this.maxPendingBytes = settings.maxPendingBytes();
        this.stallTimeoutNanos = settings.stallTimeoutNanos();
        this.heartbeatNanos = settings.heartbeatNanos();
        this.lifecycle = lifecycle;
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

    /**
     * Queues a replay (not copied), to be handed over before anything queued after it; {@code lease} is given back
     * message by message as they are handed over, and whole when the stream ends first.
     */
    void replay(List<CableMessage> messages, ReplayLease lease) {
        if (messages.isEmpty()) {
            lease.close();
            return;
        }
        synchronized (this) {
            if (!done) {
                enqueue(new ReplayCursor(messages, lease));
                lease = null;
            }
        }
        if (lease != null) {
            lease.close();
            return;
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

    /** True when nothing waits and nothing was handed over for the heartbeat interval (never with heartbeats off). */
    boolean quiet(long now) {
        synchronized (this) {
            return heartbeatNanos > 0 && !done && subscriber != null && (queue == null || queue.isEmpty())
                    && now - progressNanos > heartbeatNanos;
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
        if (queue != null) {
            for (Object item : queue) {
                if (item instanceof ReplayCursor cursor) {
                    cursor.lease.close();
                }
            }
        }
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
        while (true) {
            OutboundSseEvent next = null;
            Throwable failure = null;
            boolean finish = false;
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
                } else if (queue != null && !queue.isEmpty() && demand > 0) {
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

    private OutboundSseEvent take() {
        Object head = queue.peek();
        if (head instanceof ReplayCursor cursor) {
            CableMessage message = cursor.messages.get(cursor.next++);
            // Handed to Quarkus REST, which asks for the next event once this one is written.
            cursor.lease.written(message);
            if (cursor.next == cursor.messages.size()) {
                queue.poll();
                cursor.lease.close();
            }
            return SharedEvents.of(message);
        }
        queue.poll();
        TextEvent event = (TextEvent) head;
        pendingBytes -= SharedEvents.size(event);
        return event;
    }
}
