package io.quarkiverse.cable.runtime.core;

import java.util.concurrent.locks.ReentrantLock;

/**
 * One connection's (or one SSE stream's) presence session, the only way a front end joins, leaves and ends: its joins,
 * leaves and its end run one at a time, and nothing joins after the end.
 * <p>
 * That order is what keeps the sets free of ghosts whatever the interleaving: a join still committing when its
 * connection closes is waited for by the end, which then hands it to the TTL; a join that arrives after the end (a
 * server-side join queued behind a close, a client join racing its own disconnect) is refused instead of stored for a
 * session nobody would ever end. Front ends call {@link #end()} on every close, joined or not: a session that never
 * joined costs no database work.
 * <p>
 * Calls block (database work): front ends make them on a virtual thread, never on an event loop. The lock is a
 * {@link ReentrantLock}, not a monitor, so that a virtual thread waiting for another session's commit does not pin its
 * carrier on JDK 21.
 */
public final class PresenceSession {

    private final Presence presence;
    private final String id = SessionIds.next();
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by the lock. */
    private boolean ended;
    /** Guarded by the lock: whether a join was tried, so the end may have rows to hand to the TTL. */
    private boolean joined;

    PresenceSession(Presence presence) {
        this.presence = presence;
    }

    /** The session's id: 128 random bits (never a connection's id), also the extended protocol's welcome {@code sid}. */
    public String id() {
        return id;
    }

    /**
     * Joins {@code channel}'s set as {@code presenceId} (see {@link Presence#join}); returns whether the id was new.
     * After {@link #end()} nothing is stored and the answer is false.
     */
    public boolean join(String channel, String presenceId, String infoJson) {
        lock.lock();
        try {
            if (ended) {
                return false;
            }
            // Before the store's call: a join whose commit fails or overruns may still have written its row.
            joined = true;
            return presence.join(channel, presenceId, id, infoJson);
        } finally {
            lock.unlock();
        }
    }

    /** Leaves {@code channel}'s set at once; returns whether a leave was published (see {@link Presence#leave}). */
    public boolean leave(String channel, String presenceId) {
        lock.lock();
        try {
            return !ended && presence.leave(channel, presenceId, id);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The session is over (its connection closed, its stream ended): its memberships end when the TTL ends, unless the
     * same id joins again with another session. Waits for a join in flight; idempotent.
     */
    public void end() {
        lock.lock();
        try {
            if (ended) {
                return;
            }
            ended = true;
            if (joined) {
                presence.disconnected(id);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@link #end()} was called. */
    public boolean ended() {
        lock.lock();
        try {
            return ended;
        } finally {
            lock.unlock();
        }
    }
}
