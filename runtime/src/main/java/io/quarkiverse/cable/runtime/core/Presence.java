package io.quarkiverse.cable.runtime.core;

import io.quarkiverse.cable.PresenceSnapshot;
import io.quarkiverse.cable.spi.PresenceStore;

/**
 * The cable's presence as the front ends (Action Cable, {@code CablePresence}, {@code CableStreams.joinPresence},
 * SSE) use it: the adapter's sets, this node's reader of their events, and the bounds on what a client may join with.
 */
public interface Presence {

    /** The presence id column's size. */
    int MAX_ID_LENGTH = 255;

    /**
     * A new presence session: one per connection or stream, also the extended protocol's welcome {@code sid}. Front
     * ends join, leave and end through it only, which keeps the order that leaves no ghost (see the class).
     */
    default PresenceSession session() {
        return new PresenceSession(this);
    }

    PresenceSettings settings();

    PresenceEvents events();

    /** {@code listener} hears the changes this node makes from now on (see {@link PresenceStore.Changes}). */
    void onChange(PresenceStore.Changes listener);

    /**
     * Why a join with {@code presenceId} and {@code infoJson} is refused, or null: an empty id or one over 255
     * characters, info over {@code quarkus.cable.presence.max-info-size}.
     */
    String problem(String presenceId, String infoJson);

    /** Joins (see {@link PresenceStore#join}); refuses what {@link #problem} names as invalid input. */
    boolean join(String channel, String presenceId, String sessionId, String infoJson);

    boolean leave(String channel, String presenceId, String sessionId);

    void disconnected(String sessionId);

    PresenceSnapshot snapshot(String channel);

    int count(String channel);
}
