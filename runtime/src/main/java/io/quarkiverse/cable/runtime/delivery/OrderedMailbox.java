package io.quarkiverse.cable.runtime.delivery;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.CableMessage;

/**
 * Runs one listener's callbacks in order, one at a time, on a virtual thread, so neither the poller nor an event loop
 * ever waits for user code. A drain thread is started only while messages are waiting. The number of waiting
 * messages is bounded: {@link #offer} refuses once the limit is reached.
 */
public final class OrderedMailbox {

    private static final Logger LOG = Logger.getLogger(OrderedMailbox.class);

    private final CableListener listener;
    private final int limit;
    private final Runnable onListenerFailure;
    private final ConcurrentLinkedQueue<CableMessage> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicBoolean draining = new AtomicBoolean();
    private volatile boolean discarded;

    public OrderedMailbox(CableListener listener, int limit, Runnable onListenerFailure) {
        this.listener = listener;
        this.limit = limit;
        this.onListenerFailure = onListenerFailure;
    }

    public int limit() {
        return limit;
    }

    public boolean offer(CableMessage message) {
        if (size.incrementAndGet() > limit) {
            size.decrementAndGet();
            return false;
        }
        queue.add(message);
        scheduleDrain();
        return true;
    }

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
            onListenerFailure.run();
            LOG.errorf(e, "Cable listener on channel '%s' failed for message %d", message.channel(), message.id());
        }
    }
}
