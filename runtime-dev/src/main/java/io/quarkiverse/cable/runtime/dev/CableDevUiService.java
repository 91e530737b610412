package io.quarkiverse.cable.runtime.dev;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.inject.Inject;

import io.quarkiverse.cable.CablePresence;
import io.quarkiverse.cable.PresenceRecord;
import io.quarkiverse.cable.PresenceSnapshot;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkiverse.cable.runtime.core.LocalSessions;
import io.quarkiverse.cable.runtime.observability.CableObservability;
import io.quarkiverse.cable.spi.PolledMessage;
import io.quarkiverse.cable.spi.StoreException;
import io.quarkiverse.cable.spi.TransportStatus;
import io.quarkus.arc.All;

/**
 * The Dev UI card's JSON-RPC methods: the cable's figures, its channels, the newest messages, and a test broadcast.
 * It lives in the {@code quarkus-cable-dev} artifact, which an application has on its class path in development mode
 * only, so a production build carries none of it.
 */
public class CableDevUiService {

    private static final int PREVIEW_CHARS = 200;
    /**
     * The channels the cable itself writes messages to ({@link IdentityChannels#isCableOwned} names the reserved
     * prefixes; these are the names rows are actually written under).
     */
    private static final Set<String> CABLE_WRITTEN = Set.of(IdentityChannels.CONTROL, IdentityChannels.WHISPERS,
            IdentityChannels.PRESENCE);

    @Inject
    CableObservability observability;

    /** Every front end's sessions on this node (Action Cable connections describe themselves). */
    @Inject
    @All
    List<LocalSessions> sessions;

    @Inject
    CablePresence presence;

    public CableObservability.Snapshot getStatus() {
        return observability.snapshot();
    }

    public List<Map<String, Object>> getChannels() {
        List<Map<String, Object>> channels = new ArrayList<>();
        observability.channels().forEach((channel, count) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("channel", channel);
            row.put("subscribers", count);
            row.put("internal", IdentityChannels.isCableOwned(channel));
            channels.add(row);
        });
        return channels;
    }

    /** This node's open connections: identifiers, subscriptions, presence sets, how long open; oldest first. */
    public List<Map<String, Object>> getConnections() {
        List<LocalSessions.SessionView> views = new ArrayList<>();
        sessions.forEach(kind -> views.addAll(kind.sessions()));
        views.sort((a, b) -> Long.compare(b.openMillis(), a.openMillis()));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (LocalSessions.SessionView view : views) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", view.id());
            row.put("protocol", view.protocol());
            row.put("identifiers", view.identifiers());
            row.put("subscriptions", view.subscriptions());
            row.put("presenceSets", view.presenceSets());
            row.put("openMillis", view.openMillis());
            rows.add(row);
        }
        return rows;
    }

    /**
     * The presence sets this node's connections are in, each as the database holds it now (members from every
     * node): one row per member, and one row with a null id for a set that is empty. Each read waits at most
     * {@code quarkus.cable.health.writer-timeout}, so an unreachable database cannot hold the request.
     */
    public List<Map<String, Object>> getPresence() {
        Set<String> channels = new TreeSet<>();
        sessions.forEach(kind -> kind.sessions().forEach(view -> channels.addAll(view.presenceSets())));
        Duration bound = observability.thresholds().writerTimeout();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String channel : channels) {
            PresenceSnapshot snapshot;
            try {
                snapshot = presence.snapshot(channel).toCompletableFuture().get(bound.toNanos(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (ExecutionException | TimeoutException | RuntimeException e) {
                rows.add(presenceRow(channel, null, null, "unreadable: " + e));
                continue;
            }
            if (snapshot.records().isEmpty()) {
                rows.add(presenceRow(channel, null, null, "empty"));
            }
            for (PresenceRecord record : snapshot.records()) {
                rows.add(presenceRow(channel, record.id(), record.info(), null));
            }
        }
        return rows;
    }

    private static Map<String, Object> presenceRow(String channel, String id, String info, String note) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("channel", channel);
        row.put("id", id);
        row.put("info", info);
        row.put("note", note);
        return row;
    }

    /**
     * The newest messages, newest first; empty with the memory adapter, which stores nothing. Without
     * {@code internal}, the channels only the cable writes are left out: every whisper, presence event and disconnect
     * command is a row of its own, and on a busy page they pushed the application's messages out of the list.
     */
    public List<Map<String, Object>> getRecentMessages(int limit, boolean internal) throws StoreException {
        int bounded = Math.max(1, Math.min(limit, 500));
        TransportStatus status = observability.transport().status();
        List<Map<String, Object>> messages = new ArrayList<>();
        for (PolledMessage polled : internal ? status.recent(bounded) : status.recent(bounded, CABLE_WRITTEN)) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", polled.message().id());
            row.put("channel", polled.message().channel());
            row.put("internal", IdentityChannels.isCableOwned(polled.message().channel()));
            row.put("createdAt", Instant.ofEpochMilli(polled.createdAtMillis()).toString());
            row.put("binary", polled.message().binary());
            row.put("bytes", polled.message().payload().length);
            String text = polled.message().binary() ? "(binary)"
                    : new String(polled.message().payload(), StandardCharsets.UTF_8);
            row.put("payload", text.length() > PREVIEW_CHARS ? text.substring(0, PREVIEW_CHARS) + "…" : text);
            messages.add(row);
        }
        return messages;
    }

    /**
     * Broadcasts a text message and waits for its commit; answers "committed" or why not. The wait is bounded by
     * {@code quarkus.cable.health.writer-timeout}: a broadcast still uncommitted after it means readiness already
     * reports the writer as stuck or retrying, and the answer says so (the broadcast stays queued and may still
     * commit). Without the bound, a stuck writer would hold this request, and a worker thread, forever.
     */
    public String broadcast(String channel, String payload) {
        Duration bound = observability.thresholds().writerTimeout();
        try {
            observability.engine().broadcast(channel, payload).toCompletableFuture()
                    .get(bound.toNanos(), TimeUnit.NANOSECONDS);
            return "committed";
        } catch (TimeoutException e) {
            return "not committed within " + bound + " (quarkus.cable.health.writer-timeout): the writer is stuck or "
                    + "retrying, see readiness; the broadcast stays queued";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (ExecutionException | CompletionException e) {
            return "failed: " + e.getCause().getMessage();
        } catch (RuntimeException e) {
            return "failed: " + e.getMessage();
        }
    }
}
