package io.quarkiverse.cable.runtime.core;

import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.quarkiverse.cable.CableMessage;

/**
 * Observers of this node's successful broadcasts (the testing helper's capture): each is told about a broadcast once
 * it is committed (for a transactional one, after its transaction committed), with the numbering of accepted
 * broadcasts that fences wait on. Empty in production, where the data path only checks that.
 */
public final class BroadcastTaps {

    private final List<Consumer<CableMessage>> taps = new CopyOnWriteArrayList<>();

    /** The engine holds the node's one. */
    BroadcastTaps() {
    }

    public void add(Consumer<CableMessage> tap) {
        taps.add(tap);
    }

    public void remove(Consumer<CableMessage> tap) {
        taps.remove(tap);
    }

    boolean isEmpty() {
        return taps.isEmpty();
    }

    /** Broadcasts accepted while a tap was registered, numbered in acceptance order; guarded by {@code this}. */
    private long lastAccepted;
    /** The numbers of those not settled yet (neither captured nor failed); guarded by {@code this}. */
    private final TreeSet<Long> unsettled = new TreeSet<>();

    /**
     * A broadcast was accepted (queued, or joined a transaction) while a tap is registered: returns its number for
     * {@link #settled}. Under the lock, so a fence never sees a number without its entry in {@link #unsettled}.
     */
    synchronized long accepted() {
        long number = ++lastAccepted;
        unsettled.add(number);
        return number;
    }

    /** The broadcast numbered {@code number} succeeded (and the taps were told) or failed. */
    synchronized void settled(long number) {
        unsettled.remove(number);
        notifyAll();
    }

    /**
     * Waits until every broadcast accepted before this call (while a tap was registered) has settled: each one that
     * succeeded was given to the taps before this returns.
     *
     * @return false when some had not settled within {@code timeoutNanos}
     */
    public synchronized boolean fence(long timeoutNanos) throws InterruptedException {
        long upTo = lastAccepted;
        long deadline = System.nanoTime() + timeoutNanos;
        while (!unsettled.isEmpty() && unsettled.first() <= upTo) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    public synchronized int unsettled() {
        return unsettled.size();
    }

    /** The message's id is 0: ids are assigned by the store and not known to the broadcaster. */
    void committed(String channel, byte[] payload, boolean binary) {
        CableMessage message = new CableMessage(0, channel, payload, binary);
        for (Consumer<CableMessage> tap : taps) {
            tap.accept(message);
        }
    }
}
