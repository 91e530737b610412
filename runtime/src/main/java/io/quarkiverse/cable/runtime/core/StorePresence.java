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

/** The engine's {@link Presence}: the adapter's sets ({@link PresenceStore}) behind the bounds a client meets. */
final class StorePresence implements Presence {

    private static final Logger LOG = Logger.getLogger(StorePresence.class);

    private final Supplier<PresenceStore> store;
    private final PresenceSettings settings;
    private final PresenceEvents events;
    private final List<PresenceStore.Changes> changeListeners = new CopyOnWriteArrayList<>();

    StorePresence(Supplier<PresenceStore> store, PresenceSettings settings,
            Function<Delivery, LocalSubscription> subscribe) {
        this.store = store;
        this.settings = settings;
        this.events = new PresenceEventReader(subscribe);
    }

    @Override
    public PresenceSettings settings() {
        return settings;
    }

    @Override
    public PresenceEvents events() {
        return events;
    }

    @Override
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

    @Override
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

    @Override
    public boolean join(String channel, String presenceId, String sessionId, String infoJson) {
        String problem = problem(presenceId, infoJson);
        if (problem != null) {
            throw new CableException.InvalidMessage("Cable presence join refused: " + problem);
        }
        return store.get().join(channel, presenceId, sessionId, infoJson);
    }

    @Override
    public boolean leave(String channel, String presenceId, String sessionId) {
        return store.get().leave(channel, presenceId, sessionId);
    }

    @Override
    public void disconnected(String sessionId) {
        store.get().disconnected(sessionId);
    }

    @Override
    public PresenceSnapshot snapshot(String channel) {
        return store.get().snapshot(channel, settings.maxRecords());
    }

    @Override
    public int count(String channel) {
        return store.get().count(channel);
    }
}
