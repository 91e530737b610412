package io.quarkiverse.cable.runtime.core;

import java.util.function.Function;
import java.util.function.Predicate;

import io.quarkiverse.cable.CableMessage;

/**
 * The fast path of a WebSocket stream: on the dispatching thread, the message is turned into its frame (encoded once
 * per node by a shared encoder) and handed to a sink that never blocks (a connection's outbox). Per-connection order is
 * the dispatch order.
 */
final class DirectDelivery implements Delivery {

    private final Function<CableMessage, Object> frames;
    private final Predicate<Object> sink;
    private final int limit;

    DirectDelivery(Function<CableMessage, Object> frames, Predicate<Object> sink, int limit) {
        this.frames = frames;
        this.sink = sink;
        this.limit = limit;
    }

    @Override
    public boolean offer(CableMessage message) {
        return sink.test(frames.apply(message));
    }

    /** Nothing waits here: frames went to the sink as they came. */
    @Override
    public void discard() {
    }

    @Override
    public int limit() {
        return limit;
    }
}
