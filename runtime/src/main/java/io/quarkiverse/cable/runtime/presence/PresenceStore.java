package io.quarkiverse.cable.runtime.presence;

import java.util.List;

import io.quarkiverse.cable.PresenceSnapshot;
import io.quarkiverse.cable.runtime.Worker;

/**
 * Where an adapter keeps the presence sets (the database's tables, or this process' memory). Every change that adds
 * an id to a set or removes its last session also publishes the join or leave on {@code cable:presence}, ordered with
 * the other changes of that id. Calls block (database work); failures are {@code CableException.StorageFailed}.
 */
public interface PresenceStore {

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
