package io.quarkiverse.cable.runtime.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

import io.quarkiverse.cable.PresenceRecord;
import io.quarkiverse.cable.PresenceSnapshot;
import io.quarkiverse.cable.runtime.core.PresenceSettings;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkiverse.cable.spi.PresenceEnvelope;
import io.quarkiverse.cable.spi.PresenceStore;
import io.quarkiverse.cable.spi.Worker;

/**
 * The presence sets of the memory adapter (this process only), with the database adapter's rules: a join event for
 * an id's first session, a leave for its last, a disconnected session kept until the TTL ends. Changes and their
 * events happen under one lock, so the events go out in the order of the changes.
 */
final class MemoryPresence implements PresenceStore {

    private final PresenceSettings settings;
    /**
     * Publishes a change's messages (its envelope on {@code cable:presence}, and in-stream its stream's message);
     * called under the lock, so changes go out in order; must not block.
     */
    private final Consumer<OutgoingMessage> publish;
    private final Object lock = new Object();
    /** channel -> id -> its entry, ids sorted like the database's snapshot. */
    private final Map<String, TreeMap<String, Entry>> channels = new HashMap<>();
    /** session id -> the entries it is a session of, so a disconnect touches its own entries only. */
    private final Map<String, Set<Entry>> bySession = new HashMap<>();
    private final Worker worker = new Worker("presence", this::run);
    private volatile Changes changes;

    /** An id's info and sessions: session id -> when it expires (System.nanoTime), 0 while connected. */
    private static final class Entry {
        String info;
        final Map<String, Long> sessions = new HashMap<>();
    }

    public MemoryPresence(PresenceSettings settings, Consumer<OutgoingMessage> publish) {
        this.settings = settings;
        this.publish = publish;
    }

    @Override
    public void changes(Changes changes) {
        this.changes = changes;
    }

    @Override
    public boolean join(String channel, String presenceId, String sessionId, String infoJson) {
        boolean added = joinLocked(channel, presenceId, sessionId, infoJson);
        if (added) {
            heard(channel, presenceId, true);
        }
        return added;
    }

    private boolean joinLocked(String channel, String presenceId, String sessionId, String infoJson) {
        synchronized (lock) {
            Entry entry = channels.computeIfAbsent(channel, ignored -> new TreeMap<>()).get(presenceId);
            boolean added = entry == null;
            if (added) {
                entry = new Entry();
                channels.get(channel).put(presenceId, entry);
            }
            boolean updated = !added && !Objects.equals(entry.info, infoJson);
            entry.info = infoJson;
            entry.sessions.put(sessionId, 0L);
            bySession.computeIfAbsent(sessionId, ignored -> new HashSet<>()).add(entry);
            if (added) {
                PresenceEnvelope.joined(channel, presenceId, infoJson, settings.inStream(channel)).forEach(publish);
            } else if (updated) {
                // Already in the set with other info: every member hears the new info, as the database adapter's.
                PresenceEnvelope.updated(channel, presenceId, infoJson, settings.inStream(channel)).forEach(publish);
            }
            return added;
        }
    }

    @Override
    public boolean leave(String channel, String presenceId, String sessionId) {
        boolean left = leaveLocked(channel, presenceId, sessionId);
        if (left) {
            heard(channel, presenceId, false);
        }
        return left;
    }

    /** Outside the lock: the listener may take its time. */
    private void heard(String channel, String presenceId, boolean joined) {
        Changes listener = changes;
        if (listener != null) {
            listener.changed(channel, presenceId, joined);
        }
    }

    private boolean leaveLocked(String channel, String presenceId, String sessionId) {
        synchronized (lock) {
            TreeMap<String, Entry> ids = channels.get(channel);
            Entry entry = ids == null ? null : ids.get(presenceId);
            if (entry == null || entry.sessions.remove(sessionId) == null) {
                return false;
            }
            forget(sessionId, entry);
            return removeIfLast(channel, ids, presenceId, entry);
        }
    }

    @Override
    public void disconnected(String sessionId) {
        long end = System.nanoTime() + settings.ttl().toNanos();
        synchronized (lock) {
            for (Entry entry : bySession.getOrDefault(sessionId, Set.of())) {
                entry.sessions.computeIfPresent(sessionId, (ignored, expires) -> expires == 0 ? end : expires);
            }
        }
    }

    @Override
    public PresenceSnapshot snapshot(String channel, int maxRecords) {
        synchronized (lock) {
            TreeMap<String, Entry> ids = channels.getOrDefault(channel, new TreeMap<>());
            List<PresenceRecord> records = new ArrayList<>();
            for (Map.Entry<String, Entry> id : ids.entrySet()) {
                if (records.size() == maxRecords) {
                    break;
                }
                records.add(new PresenceRecord(id.getKey(), id.getValue().info));
            }
            return new PresenceSnapshot(ids.size(), records);
        }
    }

    @Override
    public int count(String channel) {
        synchronized (lock) {
            TreeMap<String, Entry> ids = channels.get(channel);
            return ids == null ? 0 : ids.size();
        }
    }

    @Override
    public void start(String suffix) {
        worker.start(suffix);
    }

    @Override
    public void stop() {
        worker.stop(10_000);
    }

    @Override
    public List<Worker> workers() {
        return List.of(worker);
    }

    private void forget(String sessionId, Entry entry) {
        Set<Entry> entries = bySession.get(sessionId);
        if (entries != null && entries.remove(entry) && entries.isEmpty()) {
            bySession.remove(sessionId);
        }
    }

    private boolean removeIfLast(String channel, TreeMap<String, Entry> ids, String presenceId, Entry entry) {
        if (!entry.sessions.isEmpty()) {
            return false;
        }
        ids.remove(presenceId);
        if (ids.isEmpty()) {
            channels.remove(channel);
        }
        PresenceEnvelope.left(channel, presenceId, settings.inStream(channel)).forEach(publish);
        return true;
    }

    private void run() {
        while (worker.running()) {
            worker.idle(settings.reapIntervalNanos());
            long now = System.nanoTime();
            List<String[]> left = new ArrayList<>();
            synchronized (lock) {
                for (Iterator<Map.Entry<String, TreeMap<String, Entry>>> c = channels.entrySet().iterator(); c
                        .hasNext();) {
                    Map.Entry<String, TreeMap<String, Entry>> channel = c.next();
                    for (Iterator<Map.Entry<String, Entry>> i = channel.getValue().entrySet().iterator(); i.hasNext();) {
                        Map.Entry<String, Entry> id = i.next();
                        Entry entry = id.getValue();
                        boolean expired = entry.sessions.entrySet().removeIf(session -> {
                            long expires = session.getValue();
                            boolean over = expires != 0 && now - expires >= 0;
                            if (over) {
                                forget(session.getKey(), entry);
                            }
                            return over;
                        });
                        if (expired && id.getValue().sessions.isEmpty()) {
                            i.remove();
                            PresenceEnvelope.left(channel.getKey(), id.getKey(), settings.inStream(channel.getKey()))
                                    .forEach(publish);
                            left.add(new String[] { channel.getKey(), id.getKey() });
                        }
                    }
                    if (channel.getValue().isEmpty()) {
                        c.remove();
                    }
                }
            }
            left.forEach(change -> heard(change[0], change[1], false));
        }
    }
}
