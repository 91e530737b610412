package io.quarkiverse.cable.runtime.core;

import java.util.ArrayDeque;
import java.util.List;

import io.quarkiverse.cable.CableMessage;

/**
 * Holds a recovering subscription's live messages while its history is read, then hands on the replay, whatever
 * must come between replay and live (a {@code confirm_history} frame), and the held messages, in that order.
 * <p>
 * The subscription is live (in the subscriber map, above its starting line) before the history is read, so no
 * message can fall between the two: the replay ends at the starting line, live starts after it. Holding bounds the
 * memory: a subscription with more than {@code limit} live messages waiting is a slow consumer.
 */
final class HeldDelivery implements Delivery {

    private final Delivery target;
    private final int limit;
    private ArrayDeque<CableMessage> held = new ArrayDeque<>();

    HeldDelivery(Delivery target, int limit) {
        this.target = target;
        this.limit = limit;
    }

    @Override
    public String session() {
        return target.session();
    }

    @Override
    public synchronized boolean offer(CableMessage message) {
        if (held == null) {
            return target.offer(message);
        }
        if (held.size() >= limit) {
            return false;
        }
        held.add(message);
        return true;
    }

    /**
     * Hands on {@code replay}, runs {@code beforeLive}, then the held messages, and from then on passes every message
     * straight through. Returns false when the target refused a message (a slow consumer).
     */
    synchronized boolean release(List<CableMessage> replay, Runnable beforeLive) {
        ArrayDeque<CableMessage> waiting = held;
        held = null;
        for (CableMessage message : replay) {
            if (!target.offer(message)) {
                return false;
            }
        }
        beforeLive.run();
        for (CableMessage message : waiting) {
            if (!target.offer(message)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public synchronized void discard() {
        if (held != null) {
            held.clear();
        }
        target.discard();
    }

    @Override
    public int limit() {
        return limit;
    }
}
