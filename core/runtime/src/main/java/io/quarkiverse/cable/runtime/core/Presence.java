package io.quarkiverse.cable.runtime.core;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.PresenceSnapshot;
import io.quarkiverse.cable.spi.PresenceStore;

/**
 * The cable's presence as the front ends (Action Cable, {@code CablePresence}, {@code CableStreams.joinPresence},
 * SSE) use it: the adapter's sets ({@link PresenceStore}) behind the bounds a client meets, and this node's reader of
 * their events.
 */
public final class Presence {

    /** The presence id column's size. */
    public static final int MAX_ID_LENGTH = 255;

    private static final Logger LOG = Logger.getLogger(Presence.class);

    private final Supplier<PresenceStore> store;
    private final PresenceSettings settings;
    private final PresenceEvents events;
    private final List<PresenceStore.Changes> changeListeners = new CopyOnWriteArrayList<>();

    Presence(Supplier<PresenceStore> store, PresenceSettings settings,
            Function<Delivery, LocalSubscription> subscribe) {
        this.store = store;
        this.settings = settings;
        this.events = new PresenceEvents(subscribe);
    }

    /**
     * A new presence session: one per connection or stream, also the extended protocol's welcome {@code sid}. Front
     * ends join, leave and end through it only, which keeps the order that leaves no ghost (see the class).
     */
    public PresenceSession session() {
        return new PresenceSession(this);
    }

    public PresenceSettings settings() {
        return settings;
    }

    public PresenceEvents events() {
        return events;
    }

    /** {@code listener} hears the changes this node makes from now on (see {@link PresenceStore.Changes}). */
    public void onChange(PresenceStore.Changes listener) {
        changeListeners.add(listener);
    }

    /** What the adapter's store reports after each change this node committed. */
    void changed(String channel, String presenceId, boolean joined) {
        for (PresenceStore.Changes listener : changeListeners) {
            try {
                listener.changed(channel, presenceId, joined);
            } catch (RuntimeException e) {
                LOG.warnf("A listener of presence changes failed on %s: %s", channel, e);
            }
        }
    }

    /**
     * Why a join with {@code presenceId} and {@code infoJson} is refused, or null: an empty id or one over 255
     * characters, info over {@code quarkus.cable.presence.max-info-size}.
     */
    public String problem(String presenceId, String infoJson) {
        if (presenceId == null || presenceId.isEmpty()) {
            return "a presence id must not be empty";
        }
        if (presenceId.length() > MAX_ID_LENGTH) {
            return "a presence id is at most " + MAX_ID_LENGTH + " characters, not " + presenceId.length();
        }
        if (infoJson != null && infoJson.getBytes(StandardCharsets.UTF_8).length > settings.maxInfoSize()) {
            return "presence info is at most " + settings.maxInfoSize()
                    + " bytes as JSON (quarkus.cable.presence.max-info-size)";
        }
        return null;
    }

    /** Joins (see {@link PresenceStore#join}); refuses what {@link #problem} names as invalid input. */
    public boolean join(String channel, String presenceId, String sessionId, String infoJson) {
        String problem = problem(presenceId, infoJson);
        if (problem != null) {
            throw new CableException.InvalidMessage("Cable presence join refused: " + problem);
        }
        return store.get().join(channel, presenceId, sessionId, infoJson);
    }

    public boolean leave(String channel, String presenceId, String sessionId) {
        return store.get().leave(channel, presenceId, sessionId);
    }

    public void disconnected(String sessionId) {
        store.get().disconnected(sessionId);
    }

    public PresenceSnapshot snapshot(String channel) {
        return store.get().snapshot(channel, settings.maxRecords());
    }

    public int count(String channel) {
        return store.get().count(channel);
    }
}
