package io.quarkiverse.cable.runtime.websocket;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.quarkiverse.cable.runtime.subscribers.LocalSubscription;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;

/**
 * One connection's cable streams and its outbound frames. Frames are written without waiting. A connection is closed
 * as a slow consumer when its writes have made no progress for the stall timeout while frames wait, or when more
 * frames wait than the hard limit; either way it cannot grow the heap, and nobody else waits for it. A healthy client
 * taking a burst keeps completing writes, so it is not mistaken for a stalled one.
 */
final class ConnectionOutbox {

    /** RFC 6455 "policy violation": used for clients too slow to read and for connections that cannot stream. */
    static final int POLICY_VIOLATION = 1008;

    final WebSocketConnection connection;
    final Map<String, LocalSubscription> streams = new ConcurrentHashMap<>();
    private final OutboxLimits limits;
    private final Consumer<String> onSlowConsumer;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile long lastProgressNanos = System.nanoTime();

    ConnectionOutbox(WebSocketConnection connection, OutboxLimits limits, Consumer<String> onSlowConsumer) {
        this.connection = connection;
        this.limits = limits;
        this.onSlowConsumer = onSlowConsumer;
    }

    OutboxLimits limits() {
        return limits;
    }

    /** Writes a text (String) or binary (byte[]) frame; never blocks. */
    void send(Object frame) {
        if (closing.get()) {
            return;
        }
        int waiting = pending.incrementAndGet();
        if (waiting == 1) {
            lastProgressNanos = System.nanoTime();
        } else if (waiting > limits.maxPendingFrames()) {
            pending.decrementAndGet();
            closeAsSlowConsumer("more than " + limits.maxPendingFrames() + " frames pending");
            return;
        } else if (System.nanoTime() - lastProgressNanos > limits.stallTimeoutNanos()) {
            pending.decrementAndGet();
            closeAsSlowConsumer("no frame written for " + limits.stallTimeoutMillis() + " ms");
            return;
        }
        var write = frame instanceof byte[] bytes ? connection.sendBinary(bytes) : connection.sendText((String) frame);
        write.subscribe().with(ignored -> progress(), failure -> progress());
    }

    private void progress() {
        lastProgressNanos = System.nanoTime();
        pending.decrementAndGet();
    }

    private void closeAsSlowConsumer(String why) {
        if (closing.compareAndSet(false, true)) {
            onSlowConsumer.accept(why);
            connection.close(new CloseReason(POLICY_VIOLATION, "cable: client too slow, " + why)).subscribe()
                    .with(ignored -> {
                    }, failure -> {
                    });
        }
    }

    /** The per-connection bounds, from quarkus.cable.websocket.*; read once at startup. */
    record OutboxLimits(int maxPendingFrames, long stallTimeoutNanos) {

        long stallTimeoutMillis() {
            return stallTimeoutNanos / 1_000_000;
        }
    }
}
