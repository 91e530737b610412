package io.quarkiverse.cable.runtime.core;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One WebSocket connection's outbound frames, for every WebSocket front end (each writes through its own {@link Wire}),
 * bounded in frames, bytes and stall time. Frames are written without waiting. A connection is closed as a slow
 * consumer when its writes have made no progress for the stall timeout while frames wait, or when the bytes waiting
 * for it (frames handed to the socket and not written yet, at their encoded size) would exceed the limit; either way it
 * cannot grow the memory beyond its bound, and nobody else waits for it. The stall is checked on every send and by a
 * periodic {@link #checkStalled()}. A healthy client taking a burst keeps completing writes, so it is not mistaken for
 * a stalled one.
 */
public final class ConnectionOutbox {

    /**
     * Where an outbox writes: a WebSockets Next connection ({@code WebSocketWire}, under both WebSocket front ends).
     * The outbox knows no socket API.
     */
    public interface Wire {
        /**
         * Writes a frame of a kind this wire takes (a String or byte[], or the wire's own encoded form) without
         * waiting; {@code done} runs when it completed or failed.
         */
        void write(Object frame, Runnable done);

        /**
         * The bytes {@code frame} holds until it is written: its encoded size. A frame shared by many connections
         * counts its whole size on each (the bound is per connection). {@link #plainSize} sizes Strings and byte[].
         */
        long size(Object frame);

        void close(int code, String reason);

        /** Whether the socket underneath is closed, whoever closed it (seen even if no close handler ever ran). */
        boolean isClosed();
    }

    /** RFC 6455 "policy violation": used for clients too slow to read and for connections that cannot stream. */
    public static final int POLICY_VIOLATION = 1008;

    /** The close reason a slow consumer sees (code 1008), documented on the Security page. */
    public static final String SLOW_CLIENT_REASON = "cable: client too slow";

    /** Hears why a connection is closed as a slow consumer (before its close). */
    public interface SlowConsumer {
        void closing(CableStats.Refusal reason, String why);
    }

    /** The per-connection bounds, from quarkus.cable.websocket.*; read once at startup. */
    public record OutboxLimits(int maxPendingFrames, long maxPendingBytes, long stallTimeoutNanos) {

        /** The bounds every WebSocket front end applies (CableConfigCheck has validated them). */
        public static OutboxLimits of(CableRuntimeConfig config) {
            CableRuntimeConfig.WebSocket websocket = config.websocket();
            return new OutboxLimits(websocket.maxPendingFrames(), websocket.maxPendingBytes().asLongValue(),
                    websocket.stallTimeout().toNanos());
        }

        long stallTimeoutMillis() {
            return stallTimeoutNanos / 1_000_000;
        }
    }

    /** The encoded size of a text (a CharSequence, or anything else as its String) or binary (byte[]) frame. */
    public static long plainSize(Object frame) {
        if (frame instanceof byte[] binary) {
            return binary.length;
        }
        return utf8Length(frame instanceof CharSequence text ? text : String.valueOf(frame));
    }

    /** The UTF-8 length of {@code text}, counted without encoding it. */
    public static long utf8Length(CharSequence text) {
        long length = text.length();
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                length += c < 0x800 ? 1 : Character.isSurrogate(c) ? 1 : 2;
            }
        }
        return length;
    }

    /**
     * What a frame costs beyond its bytes while it waits: the transport's bookkeeping (an outbound buffer entry, a
     * promise, a frame object). Counted so that a flood of tiny frames is bounded too.
     */
    static final int FRAME_OVERHEAD = 100;

    private final Wire wire;
    private final OutboxLimits limits;
    private final SlowConsumer onSlowConsumer;
    /**
     * Frames accepted but not yet handed to the wire, and paced sources ({@link Iterator}s) whose frames are made only
     * when there is room. Guarded by {@code this}, as are the counters below; the wire is never called under the
     * lock (a write that completes at once calls back into {@link #progress}, and the wire takes its own locks).
     */
    private final ArrayDeque<Object> backlog = new ArrayDeque<>();
    /** Bytes of the frames in {@link #backlog} (paced sources count only their frame being made). */
    private long queuedBytes;
    /** Bytes handed to the wire whose write has not completed. */
    private long writingBytes;
    /** Frames handed to the wire whose write has not completed. */
    private int writing;
    /** Whether a thread is handing backlog frames to the wire (only one does, so they leave in order). */
    private boolean draining;
    private final AtomicBoolean closing = new AtomicBoolean();
    /**
     * Set by {@link #sendLastAndClose}: the close that follows the last frame once the draining thread has handed that
     * frame to the wire. From then on nothing more is accepted.
     */
    private volatile Ending ending;
    private volatile long lastProgressNanos = System.nanoTime();

    /** An outbox writing through {@code wire} within {@code limits}; {@code onSlowConsumer} hears why it closes one. */
    public ConnectionOutbox(Wire wire, OutboxLimits limits, SlowConsumer onSlowConsumer) {
        this.wire = wire;
        this.limits = limits;
        this.onSlowConsumer = onSlowConsumer;
    }

    public OutboxLimits limits() {
        return limits;
    }

    /**
     * Writes a frame of a kind the wire takes ({@link Wire#write}); never blocks. A frame that would take the bytes
     * waiting for this connection over {@link OutboxLimits#maxPendingBytes()} closes it as a slow consumer instead
     * (one frame alone always goes: a single broadcast is bounded by the payload limit).
     */
    public void send(Object frame) {
        if (isClosing()) {
            return;
        }
        long size = sizeOf(frame);
        String refusal = null;
        CableStats.Refusal reason = null;
        synchronized (this) {
            if (isClosing()) {
                return;
            }
            int frames = writing + backlog.size();
            if (frames == 0) {
                // An idle connection starts its stall clock now: the periodic check must never see a waiting frame
                // against the clock of an earlier, long finished burst.
                lastProgressNanos = System.nanoTime();
            } else if (frames >= limits.maxPendingFrames()) {
                reason = CableStats.Refusal.PENDING_FRAMES;
                refusal = "more than " + limits.maxPendingFrames() + " frames pending";
            } else if (writingBytes + queuedBytes + size > limits.maxPendingBytes()) {
                reason = CableStats.Refusal.PENDING_BYTES;
                refusal = "more than " + limits.maxPendingBytes() + " bytes pending";
            } else if (System.nanoTime() - lastProgressNanos > limits.stallTimeoutNanos()) {
                reason = CableStats.Refusal.STALLED;
                refusal = "no frame written for " + limits.stallTimeoutMillis() + " ms";
            }
            if (refusal == null) {
                backlog.add(frame);
                queuedBytes += size;
                if (draining) {
                    return; // the draining thread writes it, after what was queued before it
                }
                draining = true;
            }
        }
        if (refusal != null) {
            closeAsSlowConsumer(reason, refusal);
            return;
        }
        drain();
    }

    /**
     * Writes the frames of {@code frames} in order, behind what is already waiting, each made only when the bytes in
     * flight leave room for it: a history replay of any length holds at most about half of
     * {@link OutboxLimits#maxPendingBytes()} of this connection's memory, never the whole replay. Frames sent
     * meanwhile wait behind it (and count against the bound). A client that stops reading stalls the source and is
     * closed by the stall timeout.
     */
    public void sendPaced(Iterator<?> frames) {
        synchronized (this) {
            if (isClosing()) {
                return;
            }
            if (writing + backlog.size() == 0) {
                lastProgressNanos = System.nanoTime();
            }
            backlog.add(frames);
            if (draining) {
                return;
            }
            draining = true;
        }
        drain();
    }

    /** Hands backlog frames to the wire while there is room; run by the one thread that set {@link #draining}. */
    private void drain() {
        while (true) {
            Object frame;
            long size;
            synchronized (this) {
                Object head = backlog.peek();
                if (head == null || closing.get()) {
                    draining = false;
                    // After sendLastAndClose, an empty backlog means its frame is on the wire: close behind it, once.
                    if (head == null && ending != null && closing.compareAndSet(false, true)) {
                        break;
                    }
                    return;
                }
                if (head instanceof Iterator<?> source) {
                    // Paced: one more frame only while what is in flight stays under half the bound.
                    if (writing > 0 && writingBytes >= limits.maxPendingBytes() / 2) {
                        draining = false; // progress() resumes
                        return;
                    }
                    if (!source.hasNext()) {
                        backlog.poll();
                        continue;
                    }
                    frame = source.next();
                    size = sizeOf(frame);
                } else {
                    backlog.poll();
                    frame = head;
                    size = sizeOf(frame);
                    queuedBytes -= size;
                }
                writing++;
                writingBytes += size;
            }
            long written = size;
            wire.write(frame, () -> progress(written));
        }
        wire.close(ending.code(), ending.reason());
    }

    /**
     * Closes the connection as a slow consumer when frames have waited without progress for the stall timeout. Run
     * periodically, so a client that stalls after the last frame it was sent is closed, and its streams stopped,
     * without waiting for another frame that may never come.
     */
    public void checkStalled() {
        boolean waiting;
        synchronized (this) {
            waiting = writing + backlog.size() > 0;
        }
        if (waiting && !closing.get() && System.nanoTime() - lastProgressNanos > limits.stallTimeoutNanos()) {
            closeAsSlowConsumer(CableStats.Refusal.STALLED,
                    "no frame written for " + limits.stallTimeoutMillis() + " ms");
        }
    }

    /** Stops sending and closes the wire; later frames are dropped, and so are frames not yet handed to the wire. */
    public void close(int code, String reason) {
        if (closing.compareAndSet(false, true)) {
            dropBacklog();
            wire.close(code, reason);
        }
    }

    /**
     * Sends {@code frame} as this connection's last (a {@code disconnect}) and closes the wire right behind it. Frames
     * not yet handed to the wire are dropped, as by {@link #close}, and frames sent afterwards are refused; the frame
     * goes through the draining thread, so a broadcast another thread is writing at this moment goes before it, never
     * after. (Sent and closed as two calls, a delivery could slip in between them: a client that has already handled
     * {@code disconnect} drops that message, then asks for it again on its next connection.)
     */
    public void sendLastAndClose(Object frame, int code, String reason) {
        synchronized (this) {
            if (isClosing()) {
                return;
            }
            ending = new Ending(code, reason);
            backlog.clear();
            backlog.add(frame);
            queuedBytes = sizeOf(frame);
            if (draining) {
                return; // the draining thread writes it after the frame it holds, then closes
            }
            draining = true;
        }
        drain();
    }

    /** The close that {@link #sendLastAndClose} puts behind its frame. */
    private record Ending(int code, String reason) {
    }

    /** Whether the connection is closed or closing: frames sent now are dropped. */
    public boolean isClosing() {
        return closing.get() || ending != null;
    }

    /** Whether the socket underneath is closed (by either side, or by the network). */
    public boolean isWireClosed() {
        return wire.isClosed();
    }

    /** Bytes waiting for this connection: handed to the wire and not written yet, or queued here (for tests). */
    public synchronized long pendingBytes() {
        return writingBytes + queuedBytes;
    }

    private void progress(long size) {
        boolean resume;
        synchronized (this) {
            lastProgressNanos = System.nanoTime();
            writing--;
            writingBytes -= size;
            resume = !draining && !backlog.isEmpty() && !closing.get();
            if (resume) {
                draining = true;
            }
        }
        if (resume) {
            drain();
        }
    }

    private synchronized void dropBacklog() {
        backlog.clear();
        queuedBytes = 0;
    }

    private void closeAsSlowConsumer(CableStats.Refusal reason, String why) {
        if (closing.compareAndSet(false, true)) {
            dropBacklog();
            onSlowConsumer.closing(reason, why);
            // The reason the client sees names the limit, not how it is configured.
            wire.close(POLICY_VIOLATION, SLOW_CLIENT_REASON);
        }
    }

    /** What {@code frame} holds while it waits: its size on the wire ({@link Wire#size}) plus {@link #FRAME_OVERHEAD}. */
    long sizeOf(Object frame) {
        return wire.size(frame) + FRAME_OVERHEAD;
    }
}
