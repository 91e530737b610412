package io.quarkiverse.cable.runtime.websocket;

import java.nio.channels.ClosedChannelException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.quarkiverse.cable.runtime.subscribers.LocalSubscription;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.http.WebSocketBase;

/**
 * One connection's cable streams and its outbound frames. Frames are written without waiting. A connection is closed
 * as a slow consumer when its writes have made no progress for the stall timeout while frames wait, or when more
 * frames wait than the hard limit; either way it cannot grow the heap, and nobody else waits for it. The stall is
 * checked on every send and by a periodic {@link #checkStalled()}. A healthy client
 * taking a burst keeps completing writes, so it is not mistaken for a stalled one.
 */
public final class ConnectionOutbox {

    /** Where an outbox writes: a WebSockets Next connection or a Vert.x server WebSocket (the Action Cable endpoint). */
    public interface Wire {
        /**
         * Writes a text (String, or a {@link SharedTextFrame}) or binary (byte[]) frame
         * without waiting; {@code done} runs when it completed or failed.
         */
        void write(Object frame, Runnable done);

        void close(int code, String reason);
    }

    /**
     * Writes to a WebSockets Next connection; {@code onFailure} hears of a frame refused while it was still open.
     * A {@link SharedTextFrame} that fits one frame goes to the socket under the connection when {@code sockets} can
     * reach it (null: never), so the connection writes the shared buffer ({@link SharedFrameWriter}); anything else
     * goes through {@code sendText}/{@code sendBinary}.
     */
    static Wire wire(WebSocketConnection connection, SocketAccess sockets, Consumer<String> onFailure) {
        // A connection keeps its socket and its way of writing: chosen once, not per frame.
        WebSocketBase socket = sockets == null ? null : sockets.socketOf(connection);
        SharedFrameWriter sharedFrames = socket == null ? null
                : SharedFrameWriter.of(socket, connection.userData().get(UpgradedConnections.KEY));
        return new Wire() {
            @Override
            public void write(Object frame, Runnable done) {
                if (sharedFrames != null && frame instanceof SharedTextFrame shared && shared.fitsOneFrame()) {
                    sharedFrames.write(shared).onComplete(written -> {
                        if (written.failed()) {
                            refused(written.cause());
                        }
                        done.run();
                    });
                    return;
                }
                var write = frame instanceof byte[] bytes ? connection.sendBinary(bytes)
                        : connection.sendText(frame.toString());
                write.subscribe().with(ignored -> done.run(), failure -> {
                    refused(failure);
                    done.run();
                });
            }

            private void refused(Throwable failure) {
                if (connection.isOpen() && !(failure instanceof ClosedChannelException)) {
                    // Otherwise the frame (a "ready", a broadcast) is lost without a trace. A closed channel is the
                    // connection ending (its close has not been seen yet), not a lost frame.
                    onFailure.accept("WebSocket connection " + connection.id()
                            + ": a frame could not be written to its open socket: " + failure);
                }
            }

            @Override
            public void close(int code, String reason) {
                connection.close(new CloseReason(code, reason)).subscribe().with(ignored -> {
                }, failure -> {
                });
            }
        };
    }

    /** RFC 6455 "policy violation": used for clients too slow to read and for connections that cannot stream. */
    public static final int POLICY_VIOLATION = 1008;

    private final Wire wire;
    final Map<String, LocalSubscription> streams = new ConcurrentHashMap<>();
    private final OutboxLimits limits;
    private final Consumer<String> onSlowConsumer;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile long lastProgressNanos = System.nanoTime();

    public ConnectionOutbox(Wire wire, OutboxLimits limits, Consumer<String> onSlowConsumer) {
        this.wire = wire;
        this.limits = limits;
        this.onSlowConsumer = onSlowConsumer;
    }

    public OutboxLimits limits() {
        return limits;
    }

    /** Writes a frame of a kind the wire takes ({@link Wire#write}); never blocks. */
    public void send(Object frame) {
        if (closing.get()) {
            return;
        }
        if (pending.get() == 0) {
            // An idle connection starts its stall clock now, before the frame counts as waiting: the periodic
            // check must never see a waiting frame against the clock of an earlier, long finished burst.
            lastProgressNanos = System.nanoTime();
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
        wire.write(frame, this::progress);
    }

    /**
     * Closes the connection as a slow consumer when frames have waited without progress for the stall timeout. Run
     * periodically, so a client that stalls after the last frame it was sent is closed, and its streams stopped,
     * without waiting for another frame that may never come.
     */
    public void checkStalled() {
        if (pending.get() > 0 && !closing.get() && System.nanoTime() - lastProgressNanos > limits.stallTimeoutNanos()) {
            closeAsSlowConsumer("no frame written for " + limits.stallTimeoutMillis() + " ms");
        }
    }

    /** Stops sending and closes the wire; later frames are dropped. */
    public void close(int code, String reason) {
        if (closing.compareAndSet(false, true)) {
            wire.close(code, reason);
        }
    }

    public boolean isClosing() {
        return closing.get();
    }

    private void progress() {
        lastProgressNanos = System.nanoTime();
        pending.decrementAndGet();
    }

    private void closeAsSlowConsumer(String why) {
        if (closing.compareAndSet(false, true)) {
            onSlowConsumer.accept(why);
            wire.close(POLICY_VIOLATION, "cable: client too slow, " + why);
        }
    }

    /** The per-connection bounds, from quarkus.cable.websocket.*; read once at startup. */
    public record OutboxLimits(int maxPendingFrames, long stallTimeoutNanos) {

        long stallTimeoutMillis() {
            return stallTimeoutNanos / 1_000_000;
        }
    }
}
