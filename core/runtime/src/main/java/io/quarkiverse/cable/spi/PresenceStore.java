package io.quarkiverse.cable.spi;

import java.util.List;

import io.quarkiverse.cable.PresenceSnapshot;

/**
 * Where an adapter keeps the presence sets (the database's tables, or this process' memory). Every change that adds
 * an id to a set or removes its last session also publishes the join or leave on {@code cable:presence}, ordered with
 * the other changes of that id. Calls block (database work); failures are {@code CableException.StorageFailed}.
 */
public interface PresenceStore {

    /**
     * Hears the changes this node made (its joins and leaves, the leaves its reaper wrote), after their commit: each
     * change of the cluster is heard on exactly one node, unless that node dies between the commit and the call.
     */
    interface Changes {
        void changed(String channel, String presenceId, boolean joined);
    }

    /** Who hears this node's changes from now on (one listener; the engine's). */
    void changes(Changes changes);

    /**
     * Session {@code sessionId} joins {@code channel}'s set as {@code presenceId} with {@code infoJson} (JSON text or
     * null; a later join's info replaces an earlier one's). Returns whether the id was new, so a join was published.
     */
    boolean join(String channel, String presenceId, String sessionId, String infoJson);

    /** The session leaves the set at once; returns whether it was the id's last session, so a leave was published. */
    boolean leave(String channel, String presenceId, String sessionId);

    /** The session disconnected: its memberships end when the TTL ends, unless it joins again before. */
    void disconnected(String sessionId);

    PresenceSnapshot snapshot(String channel, int maxRecords);

    int count(String channel);

    void start(String suffix);

    /** Stops; this node's memberships then end when the TTL ends (their clients reconnect to another node). */
    void stop();

    List<Worker> workers();
}
