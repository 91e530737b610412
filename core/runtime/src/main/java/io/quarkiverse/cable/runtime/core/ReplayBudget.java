package io.quarkiverse.cable.runtime.core;

import java.util.concurrent.atomic.AtomicLong;

import io.quarkiverse.cable.CableMessage;

/**
 * The node's bound on replays to clients in flight, across every front end ({@code quarkus.cable.history
 * .max-replay-bytes-in-flight} and {@code max-replays-in-flight}): a replay takes one of the replays in flight
 * before its history is read and the bytes of its messages once they are read, and gives them back as its messages
 * are handed to the client's socket, or all at once when its subscription ends. The per-stream and per-connection
 * bounds multiply by the number of clients; this one does not, so a storm of replays (hundreds of
 * {@code Last-Event-ID: 0} requests) is refused as {@code busy} beyond it instead of being written all at once
 * beside the live traffic. Never waits: a replay that finds no room is refused, so nothing queues behind it.
 */
final class ReplayBudget {

    /** What a message costs beyond its payload while it waits: its event or frame's id, envelope and bookkeeping. */
    static final int MESSAGE_OVERHEAD = 64;

    private final long maxBytes;
    private final int maxReplays;
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong replays = new AtomicLong();

    ReplayBudget(long maxBytes, int maxReplays) {
        this.maxBytes = maxBytes;
        this.maxReplays = maxReplays;
    }

    /** What {@code message} holds of the budget until it is handed to the socket. */
    static long cost(CableMessage message) {
        return message.payload().length + MESSAGE_OVERHEAD;
    }

    /**
     * One more replay in flight, holding no bytes yet; null when {@code max-replays-in-flight} are, or the bytes in
     * flight already fill the budget (checked before the history is read, so a refused replay reads nothing).
     */
    Lease tryStart() {
        if (bytes.get() >= maxBytes) {
            return null;
        }
        if (replays.incrementAndGet() > maxReplays) {
            replays.decrementAndGet();
            return null;
        }
        return new Lease();
    }

    /** Whether a replay asked for now would be refused before its read. */
    boolean full() {
        return bytes.get() >= maxBytes || replays.get() >= maxReplays;
    }

    long bytesInFlight() {
        return bytes.get();
    }

    long replaysInFlight() {
        return replays.get();
    }

    long maxBytes() {
        return maxBytes;
    }

    int maxReplays() {
        return maxReplays;
    }

    /** One replay's share of the budget: its place among the replays in flight and the bytes not yet written. */
    final class Lease implements ReplayLease {
        /** Bytes this replay holds; guarded by {@code this}. */
        private long held;
        private boolean closed;

        /**
         * Takes the bytes of {@code messages}, the replay just read; false (nothing taken) when they would take the
         * node over the budget. A replay larger than the whole budget is admitted only when no other holds bytes,
         * so it is served alone rather than never.
         */
        boolean admit(Iterable<CableMessage> messages) {
            long size = 0;
            for (CableMessage message : messages) {
                size += cost(message);
            }
            synchronized (this) {
                if (closed) {
                    return false;
                }
                while (true) {
                    long now = bytes.get();
                    if (now > 0 && now + size > maxBytes) {
                        return false;
                    }
                    if (bytes.compareAndSet(now, now + size)) {
                        held += size;
                        return true;
                    }
                }
            }
        }

        @Override
        public void written(CableMessage message) {
            long size = cost(message);
            synchronized (this) {
                long released = Math.min(size, held);
                held -= released;
                bytes.addAndGet(-released);
            }
        }

        @Override
        public void close() {
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                bytes.addAndGet(-held);
                held = 0;
            }
            replays.decrementAndGet();
        }

        synchronized long held() {
            return held;
        }
    }
}
