package io.quarkiverse.cable.runtime.websocket;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.PresenceSession;
import io.quarkiverse.cable.runtime.core.SerialExecutor;
import io.quarkiverse.cable.runtime.frontend.RateBucket;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.websockets.next.WebSocketConnection;

/**
 * Presence of WebSockets Next connections ({@code CableStreams.joinPresence}), with the semantics of Action Cable's
 * server-side join: each connection is one presence session (128 random bits, never the connection's id), with at most
 * one membership per channel and at most {@code quarkus.cable.limits.max-subscriptions} in all; its close hands its
 * memberships to the TTL ({@code Presence.disconnected}), so the leave comes when the id's last session is gone.
 * <p>
 * A connection's joins, leaves and its hand-off run in order on its own {@link SerialExecutor} (a virtual thread while
 * there is work): they block on the database, never on an event loop, and a close queued behind a join hands that
 * join to the TTL too.
 * <p>
 * Joins are bounded per connection and channel by {@code quarkus.cable.presence.changes-per-second} (bursts of five
 * seconds' worth), as Action Cable's are per subscription: an endpoint that joins and leaves at its client's request
 * would otherwise let one client churn a room's presence (a transaction and a frame to every member each, and with
 * {@code presence.in-stream} a place in the room's replay window). Leaves are never refused: one takes effect only
 * after a join did, so bounding the joins bounds the churn, and a leave refused would keep a member that is gone.
 */
final class StreamPresence {

    private final CableEngine engine;
    private final int maxMemberships;
    private final int joinsPerSecond;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    StreamPresence(CableEngine engine, int maxMemberships, int joinsPerSecond) {
        this.engine = engine;
        this.maxMemberships = maxMemberships;
        this.joinsPerSecond = joinsPerSecond;
    }

    /** One connection's presence session; its fields other than the closed flag are read and written on its runner. */
    private final class Session {
        final WebSocketConnection connection;
        final PresenceSession presence = engine.presence().session();
        final SerialExecutor runner;
        /** Channel to the presence id it joined as. */
        final Map<String, String> memberships = new HashMap<>();
        /**
         * Channel to its join budget, kept past a leave (else leaving would reset it); a full bucket is dropped, being
         * no different from a new one, so the map holds only channels joined within the last few seconds.
         */
        final Map<String, RateBucket> joinBudgets = new HashMap<>();
        volatile boolean closed;

        Session(WebSocketConnection connection) {
            this.connection = connection;
            this.runner = new SerialExecutor("cable-stream-presence", failure -> engine.recordFailure(
                    Failure.LISTENER, "stream-presence", "Cable presence of WebSocket connection " + connection.id()
                            + " failed: " + failure));
        }
    }

    /** Joins on the connection's runner; {@code infoJson} and the id were checked by the caller. */
    CompletableFuture<Void> join(WebSocketConnection connection, String channel, String presenceId, String infoJson) {
        Session session = session(connection);
        if (session == null) {
            return closed(connection, channel);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        session.runner.execute(() -> {
            try {
                if (session.closed) {
                    done.completeExceptionally(closedFailure(connection, channel));
                    return;
                }
                String joined = session.memberships.get(channel);
                if (joined != null && !joined.equals(presenceId)) {
                    done.completeExceptionally(new CableException.InvalidMessage("Cable presence join refused on '"
                            + channel + "': connection " + connection.id()
                            + " joined as another presence id already (leave first)"));
                    return;
                }
                if (joined == null && session.memberships.size() >= maxMemberships) {
                    done.completeExceptionally(new CableException.InvalidMessage("Cable presence join refused on '"
                            + channel + "': connection " + connection.id() + " is in " + session.memberships.size()
                            + " presence sets, the most quarkus.cable.limits.max-subscriptions allows"));
                    return;
                }
                if (!joinAdmitted(session, channel)) {
                    engine.refused(CableStats.Refusal.PRESENCE_RATE, "WebSocket connection " + connection.id()
                            + " was joined to presence on '" + channel + "' more than " + joinsPerSecond
                            + " times a second (quarkus.cable.presence.changes-per-second); the join is refused");
                    done.completeExceptionally(CableException.QueueFull.presenceChanges(channel, joinsPerSecond));
                    return;
                }
                session.presence.join(channel, presenceId, infoJson);
                session.memberships.put(channel, presenceId);
                done.complete(null);
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    /** Takes a join from the connection's budget for {@code channel}; runs on the session's runner. */
    private boolean joinAdmitted(Session session, String channel) {
        if (session.joinBudgets.size() > maxMemberships) {
            session.joinBudgets.values().removeIf(RateBucket::full);
        }
        return session.joinBudgets.computeIfAbsent(channel, ignored -> new RateBucket(joinsPerSecond,
                5L * joinsPerSecond)).take();
    }

    /** Leaves at once (the leave event when this was the id's last session); nothing when it did not join. */
    CompletableFuture<Void> leave(WebSocketConnection connection, String channel) {
        Session session = sessions.get(connection.id());
        if (session == null) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        session.runner.execute(() -> {
            try {
                String joined = session.memberships.remove(channel);
                if (joined != null) {
                    session.presence.leave(channel, joined);
                }
                done.complete(null);
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    /** The connection closed: its memberships go to the TTL, once, behind whatever it asked for before. */
    void closed(String connectionId) {
        Session session = sessions.remove(connectionId);
        if (session == null) {
            return;
        }
        session.closed = true;
        session.runner.execute(() -> {
            session.memberships.clear();
            try {
                session.presence.end();
            } catch (RuntimeException e) {
                engine.recordFailure(Failure.STORAGE, "stream-presence-ttl", "Cable presence of WebSocket connection "
                        + connectionId + " could not be handed to the TTL (it stays until its node's lease ends): "
                        + e);
            }
        });
    }

    /** Sessions whose socket closed without the close listener running (see {@code WebSocketStreams.sweep}). */
    void sweep() {
        sessions.forEach((connectionId, session) -> {
            if (session.connection.isClosed()) {
                closed(connectionId);
            }
        });
    }

    private Session session(WebSocketConnection connection) {
        if (connection.isClosed()) {
            return null;
        }
        Session session = sessions.computeIfAbsent(connection.id(), id -> new Session(connection));
        if (connection.isClosed()) {
            // Closed after the check above: the close listener may already have run, and nothing else would hand this
            // session to the TTL or remove it.
            closed(connection.id());
            return null;
        }
        return session;
    }

    private static CompletableFuture<Void> closed(WebSocketConnection connection, String channel) {
        return CompletableFuture.failedFuture(closedFailure(connection, channel));
    }

    private static CableException closedFailure(WebSocketConnection connection, String channel) {
        return new CableException.InvalidMessage(
                "Cannot join presence on '" + channel + "': connection " + connection.id() + " is closed");
    }
}
