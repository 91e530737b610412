package io.quarkiverse.cable.runtime.database;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.quarkiverse.cable.spi.OutgoingMessage;

/**
 * The broadcasts waiting for this node's writer: one FIFO per channel, and batches taken from the channels in turn.
 * <p>
 * Why per channel: the promise is per-channel order, and a single FIFO made every channel's latency depend on the
 * busiest one. A channel flooding the writer held its share of the queue (a quarter by default: 2,500 broadcasts)
 * ahead of everyone else's next broadcast, which then waited for the whole share to be written, batch after batch
 * (issue 45: a healthy channel's p99 from 43 ms to 400 ms). Taken in turn, one broadcast per channel per turn, a
 * broadcast waits for at most the batch being written and its own: each batch holds one broadcast of every waiting
 * channel before it holds a second of any. Within a channel nothing changes: its broadcasts leave in the order they
 * came, so its ids and positions follow the order of its producers as before. Across channels there never was an
 * order to keep (ids are given at commit, in the batch's order).
 * <p>
 * Bounded twice: by the capacity (all channels) and by each channel's share, which is simply the length of its FIFO.
 * One lock, as {@link java.util.concurrent.ArrayBlockingQueue} had: producers offer under it, the writer thread takes
 * a batch under it.
 */
final class WriterQueue {

    /** What {@link #offer} did with a broadcast. */
    enum Offer {
        ACCEPTED,
        /** The channel holds its share already. */
        CHANNEL_FULL,
        /** The queue holds its capacity. */
        FULL
    }

    private final int capacity;
    private final int share;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Map<String, ArrayDeque<OutgoingMessage>> byChannel = new HashMap<>();
    /** The channels with broadcasts waiting, in turn order: the head gives the next broadcast of a batch. */
    private final ArrayDeque<ArrayDeque<OutgoingMessage>> turns = new ArrayDeque<>();
    private int size;

    /** {@code share}: the most broadcasts one channel may have waiting; {@code capacity} or more turns it off. */
    WriterQueue(int capacity, int share) {
        this.capacity = capacity;
        this.share = Math.min(share, capacity);
    }

    int capacity() {
        return capacity;
    }

    int share() {
        return share;
    }

    /** Whether one channel is held to less than the whole queue. */
    boolean sharesChannels() {
        return share < capacity;
    }

    Offer offer(OutgoingMessage message) {
        lock.lock();
        try {
            if (size >= capacity) {
                return Offer.FULL;
            }
            ArrayDeque<OutgoingMessage> channel = byChannel.get(message.channel());
            if (channel == null) {
                channel = new ArrayDeque<>();
                byChannel.put(message.channel(), channel);
                turns.addLast(channel);
            } else if (channel.size() >= share) {
                return Offer.CHANNEL_FULL;
            }
            channel.addLast(message);
            size++;
            notEmpty.signal();
            return Offer.ACCEPTED;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves up to {@code max} waiting broadcasts into {@code batch}, one channel at a time in turn, waiting at most
     * {@code timeout} for the first. Returns how many it moved.
     */
    int take(List<OutgoingMessage> batch, int max, long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (size == 0) {
                if (nanos <= 0) {
                    return 0;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
            return takeInTurn(batch, max);
        } finally {
            lock.unlock();
        }
    }

    /** Moves everything still waiting into {@code into} (on stop, to fail it). */
    void drainAll(List<OutgoingMessage> into) {
        lock.lock();
        try {
            takeInTurn(into, size);
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    boolean isEmpty() {
        return size() == 0;
    }

    private int takeInTurn(List<OutgoingMessage> batch, int max) {
        int taken = 0;
        while (taken < max && size > 0) {
            ArrayDeque<OutgoingMessage> channel = turns.pollFirst();
            OutgoingMessage message = channel.pollFirst();
            batch.add(message);
            taken++;
            size--;
            if (channel.isEmpty()) {
                byChannel.remove(message.channel());
            } else {
                turns.addLast(channel);
            }
        }
        return taken;
    }
}
