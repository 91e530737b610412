package io.quarkiverse.cable.runtime.core;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicBoolean;

/** The engine's {@link ConnectionOutbox}, bounded in frames, bytes and stall time. */
final class BoundedOutbox implements ConnectionOutbox {

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

    BoundedOutbox(Wire wire, OutboxLimits limits, SlowConsumer onSlowConsumer) {
        this.wire = wire;
        this.limits = limits;
        this.onSlowConsumer = onSlowConsumer;
    }

    @Override
    public OutboxLimits limits() {
        return limits;
    }

    @Override
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

    @Override
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

    @Override
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

    @Override
    public void close(int code, String reason) {
        if (closing.compareAndSet(false, true)) {
            dropBacklog();
            wire.close(code, reason);
        }
    }

    @Override
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

    @Override
    public boolean isClosing() {
        return closing.get() || ending != null;
    }

    @Override
    public boolean isWireClosed() {
        return wire.isClosed();
    }

    @Override
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
