package io.quarkiverse.cable.runtime.delivery;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.CableMessage;

/**
 * Runs one listener's callbacks in order, one at a time, on a virtual thread, so neither the poller nor an event loop
 * ever waits for user code. A drain thread is started only while messages are waiting. The number of waiting
 * messages is bounded: {@link #offer} refuses once the limit is reached.
 */
public final class OrderedMailbox implements Delivery {

    private final CableListener listener;
    private final int limit;
    private final BiConsumer<CableMessage, Throwable> onListenerFailure;
    private final ConcurrentLinkedQueue<CableMessage> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicBoolean draining = new AtomicBoolean();
    private volatile boolean discarded;

    /** {@code onListenerFailure} receives what a listener threw; the mailbox goes on with the next message. */
    public OrderedMailbox(CableListener listener, int limit, BiConsumer<CableMessage, Throwable> onListenerFailure) {
        this.listener = listener;
        this.limit = limit;
        this.onListenerFailure = onListenerFailure;
    }

    @Override
    public int limit() {
        return limit;
    }

    @Override
    public boolean offer(CableMessage message) {
        if (size.incrementAndGet() > limit) {
            size.decrementAndGet();
            return false;
        }
        queue.add(message);
        scheduleDrain();
        return true;
    }

    @Override
    public void discard() {
        discarded = true;
        queue.clear();
    }

    private void scheduleDrain() {
        if (draining.compareAndSet(false, true)) {
            Thread.ofVirtual().name("cable-listener").start(this::drain);
        }
    }

    private void drain() {
        while (true) {
            CableMessage message;
            while ((message = queue.poll()) != null) {
                size.decrementAndGet();
                if (!discarded) {
                    deliver(message);
                }
            }
            draining.set(false);
            // A message offered after the last poll but before the flag was cleared would otherwise wait forever.
            if (queue.isEmpty() || !draining.compareAndSet(false, true)) {
                return;
            }
        }
    }

    private void deliver(CableMessage message) {
        try {
            listener.onMessage(message);
        } catch (RuntimeException | Error e) {
            // Errors too: a drain thread that died would leave this subscription silently stuck.
            onListenerFailure.accept(message, e);
        }
    }
}
