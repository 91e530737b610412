package io.quarkiverse.cable.runtime.core;

import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.CableMessage;

/**
 * How a subscription hands messages on: to a listener's mailbox drained on a virtual thread
 * ({@link OrderedMailbox}), or straight to a non-blocking sink on the dispatching thread (WebSocket writes).
 */
public interface Delivery {

    /** Accepts the next message in channel order; false when the receiver is too far behind (a slow consumer). */
    boolean offer(CableMessage message);

    /** Drops whatever is still waiting; the subscription ended. */
    void discard();

    /** How far behind the receiver may fall, for the slow-consumer message. */
    int limit();

    /** The client session it delivers to (a broadcast "to others" of that session skips it); null for none. */
    default String session() {
        return null;
    }

    /** {@code delivery}, delivering to client session {@code session} (see {@link #session()}). */
    static Delivery forSession(String session, Delivery delivery) {
        return new Delivery() {
            @Override
            public boolean offer(CableMessage message) {
                return delivery.offer(message);
            }

            @Override
            public void discard() {
                delivery.discard();
            }

            @Override
            public int limit() {
                return delivery.limit();
            }

            @Override
            public String session() {
                return session;
            }
        };
    }

    /**
     * The fast path of a WebSocket stream ({@link DirectDelivery}): each message's frame, made by {@code frames}, goes
     * straight to {@code sink} on the dispatching thread.
     *
     * @param frames the frame of a message
     * @param sink takes a frame without blocking; false when the receiver is too far behind
     * @param limit how far behind the receiver may fall, for the slow-consumer message
     */
    static Delivery direct(Function<CableMessage, Object> frames, Predicate<Object> sink, int limit) {
        return new DirectDelivery(frames, sink, limit);
    }

    /**
     * A WebSocket stream without a callback: each message's frame, made once per node by {@code frames}, goes straight
     * into the connection's outbox on the dispatching thread. A full outbox closes the whole connection (all its
     * streams) itself, so this delivery never reports a slow consumer of its own.
     */
    static Delivery toOutbox(EncodedFrames frames, ConnectionOutbox outbox) {
        return direct(frames::frameFor, frame -> {
            outbox.send(frame);
            return true;
        }, outbox.limits().maxPendingFrames());
    }

    /**
     * A listener's mailbox ({@link OrderedMailbox}): at most {@code limit} messages wait, and the listener gets them
     * in order, one at a time, on a virtual thread; {@code onListenerFailure} receives what it threw.
     */
    static Delivery mailbox(CableListener listener, int limit, BiConsumer<CableMessage, Throwable> onListenerFailure) {
        return new OrderedMailbox(listener, limit, onListenerFailure);
    }
}
