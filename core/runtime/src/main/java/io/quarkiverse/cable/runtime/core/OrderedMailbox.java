package io.quarkiverse.cable.runtime.core;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.CableMessage;

/**
 * Hands one listener its messages in order, one at a time, on a {@link SerialExecutor}, so neither the poller nor an
 * event loop ever waits for user code. The number of waiting messages is bounded: {@link #offer} refuses once the
 * limit is reached.
 */
final class OrderedMailbox implements Delivery {

    private static final Logger LOG = Logger.getLogger("io.quarkiverse.cable");

    private final CableListener listener;
    private final int limit;
    private final BiConsumer<CableMessage, Throwable> onListenerFailure;
    private final AtomicInteger size = new AtomicInteger();
    private final SerialExecutor executor;
    private volatile boolean discarded;

    /** {@code onListenerFailure} receives what a listener threw; the mailbox goes on with the next message. */
    OrderedMailbox(CableListener listener, int limit, BiConsumer<CableMessage, Throwable> onListenerFailure) {
        this.listener = listener;
        this.limit = limit;
        this.onListenerFailure = onListenerFailure;
        // deliver() reports a listener's failure itself; what reaches the executor failed in that report.
        this.executor = new SerialExecutor("cable-listener",
                failure -> LOG.errorf(failure, "Reporting a cable listener's failure failed"));
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
        // On the broadcasting thread when the delivery is in-process: the broadcast's MDC and trace, else null.
        BroadcastContext carried = BroadcastContext.dispatching();
        executor.execute(() -> {
            size.decrementAndGet();
            if (!discarded) {
                deliver(message, carried);
            }
        });
        return true;
    }

    /** Messages still waiting are skipped (their tasks run empty). */
    @Override
    public void discard() {
        discarded = true;
    }

    private void deliver(CableMessage message, BroadcastContext carried) {
        try {
            // A request context of its own per message, no identity (a broadcast carries none), its MDC and trace.
            CallbackContext.runCarrying(carried, () -> listener.onMessage(message));
        } catch (Throwable e) {
            // Checked exceptions thrown sneakily and Errors too: the failure names the message it happened on.
            onListenerFailure.accept(message, e);
        }
    }
}
