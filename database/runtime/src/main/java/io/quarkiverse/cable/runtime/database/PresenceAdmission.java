package io.quarkiverse.cable.runtime.database;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How much presence work may wait for the database on one node: at most {@code perId} changes of one presence id
 * and {@code total} changes and reads in all. Presence runs a few transactions at a time, so without a bound one
 * identity opening and closing connections in a loop queued tens of thousands of transactions in front of every other
 * user's join (each of them waiting minutes), and a node being stopped waited for all of them. Past a bound the work
 * is refused at once, before anything is remembered or written; a session's end is never refused (it is bounded by
 * the joins admitted before it).
 */
final class PresenceAdmission {

    private final int perId;
    private final int total;
    private final AtomicInteger waiting = new AtomicInteger();
    private final ConcurrentHashMap<Object, AtomicInteger> waitingById = new ConcurrentHashMap<>();

    PresenceAdmission(int perId, int total) {
        this.perId = perId;
        this.total = total;
    }

    /** Admits one change of {@code id}; false when the id or the node has its most waiting (nothing is counted). */
    boolean admitChange(Object id) {
        if (!admit()) {
            return false;
        }
        AtomicInteger own = waitingById.computeIfAbsent(id, ignored -> new AtomicInteger());
        if (own.incrementAndGet() > perId) {
            releaseChange(id);
            return false;
        }
        return true;
    }

    /** Ends a change {@link #admitChange} admitted. */
    void releaseChange(Object id) {
        // Removed at zero inside compute, so a concurrent admit of the same id never counts on a removed counter.
        waitingById.computeIfPresent(id, (key, count) -> count.decrementAndGet() == 0 ? null : count);
        release();
    }

    /** Admits one read or end; false for a read when the node has its most waiting. */
    boolean admit() {
        if (waiting.incrementAndGet() > total) {
            waiting.decrementAndGet();
            return false;
        }
        return true;
    }

    /** Counts work that is never refused (a session's end): it still takes its place in the node's total. */
    void enter() {
        waiting.incrementAndGet();
    }

    void release() {
        waiting.decrementAndGet();
    }
}
