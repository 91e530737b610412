package io.quarkiverse.cable.runtime.actioncable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.quarkiverse.cable.CableConnectionEvent;
import io.quarkiverse.cable.CableConnections;
import io.quarkiverse.cable.CableIdentification;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.ConnectionOutbox;
import io.quarkiverse.cable.runtime.core.EncodedFrames;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.core.JsonPayloads;
import io.quarkiverse.cable.runtime.core.RequestOrigins;
import io.quarkiverse.cable.runtime.internals.SharedFrameWriter;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.ext.web.RoutingContext;

/**
 * The Action Cable endpoint at {@code quarkus.cable.action-cable.mount-path} and this node's registry of its connections: the
 * route
 * (registered through a build item, see {@link ActionCableRecorder}) upgrades to a WebSocket (the sub-protocol is negotiated by
 * {@link ActionCableProtocol}), opens an
 * {@link ActionCableConnection} per socket, pings every connection every 3 s, and disconnects them on request or at
 * shutdown.
 */
@Singleton
public class ActionCableServer implements CableConnections {

    private static final Logger LOG = Logger.getLogger(ActionCableServer.class);
    private static final long PING_MILLIS = 3000;
    /** RFC 6455 "message too big". */
    static final int MESSAGE_TOO_BIG = 1009;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    ChannelRegistry registry;

    @Inject
    CableRuntimeConfig config;

    @Inject
    Instance<CableIdentification> identification;

    @Inject
    Vertx vertx;

    @Inject
    RequestOrigins origins;

    @Inject
    Event<CableConnectionEvent> connectionEvents;

    private final Map<String, ActionCableConnection> connections = new ConcurrentHashMap<>();
    private final IdentifierFrames frames = new IdentifierFrames();
    private final AtomicLong ids = new AtomicLong();
    private ConnectionIdentification identifier;
    private long pingTimer = -1;
    private long maxCommandSize;
    private long openBoundNanos;
    private long maxIdentifierSize;
    private int maxSubscriptions;
    private CommandAdmission.Limits commandLimits;
    private int whisperRate;
    private boolean whispersEnabled;
    private Whispers whispers;
    private int whisperBurst;
    private ConnectionOutbox.OutboxLimits outboxLimits;

    @PostConstruct
    void configure() {
        maxCommandSize = config.actionCable().maxCommandSize().asLongValue();
        CableRuntimeConfig.Limits limits = config.limits();
        maxIdentifierSize = limits.maxIdentifierSize().asLongValue();
        maxSubscriptions = limits.maxSubscriptions();
        commandLimits = new CommandAdmission.Limits(limits.maxQueuedCommands(),
                limits.maxQueuedCommandBytes().asLongValue(), limits.commandRate(), limits.commandBurst());
        whisperRate = limits.whisperRate();
        whispersEnabled = config.actionCable().whispersEnabled();
        whispers = new Whispers(engine);
        whisperBurst = limits.whisperBurst();
        identifier = new ConnectionIdentification(identification, config.actionCable().identificationTimeout());
        openBoundNanos = config.actionCable().identificationTimeout().toNanos();
        outboxLimits = ConnectionOutbox.OutboxLimits.of(config);
    }

    void start(@Observes StartupEvent startup) {
        if (registry.turboUsed() && config.turbo().signingKey().isEmpty()) {
            throw new ConfigurationException("The application uses TurboStreams, which signs stream names with"
                    + " quarkus.cable.turbo.signing-key; set it (a long random secret, the same on every node)",
                    java.util.Set.of("quarkus.cable.turbo.signing-key"));
        }
        if (config.actionCable().enabled()) {
            pingTimer = vertx.setPeriodic(PING_MILLIS, ignored -> ping());
        }
    }

    void stop(@Observes ShutdownEvent shutdown) {
        if (pingTimer >= 0) {
            vertx.cancelTimer(pingTimer);
        }
        disconnectAll("server_restart", true);
    }

    @Override
    public int count() {
        return connections.size();
    }

    @Override
    public int disconnectAll(String reason, boolean reconnect) {
        List<ActionCableConnection> all = new ArrayList<>(connections.values());
        all.forEach(connection -> connection.disconnect(reason, reconnect));
        return all.size();
    }

    @Override
    public int disconnect(String key, String value, boolean reconnect) {
        int closed = 0;
        for (ActionCableConnection connection : connections.values()) {
            if (value != null && value.equals(connection.identifiers().get(key))) {
                connection.disconnect("remote", reconnect);
                closed++;
            }
        }
        return closed;
    }

    /**
     * Remote disconnect of one identity (a command read from the database): every connection identified by exactly
     * {@code identifiers}, not only the first, gets {@code {"type":"disconnect","reason":"remote",...}} and a close.
     */
    public int disconnectIdentity(Map<String, String> identifiers, boolean reconnect) {
        int closed = 0;
        for (ActionCableConnection connection : connections.values()) {
            if (identifiers.equals(connection.identifiers())) {
                connection.disconnect("remote", reconnect);
                closed++;
            }
        }
        return closed;
    }

    /**
     * How this node sees the connections identified with {@code key=value}, one line each (for a test's failure
     * message: a client that waits for its welcome is told apart from one the server never registered).
     */
    public List<String> describe(String key, String value) {
        List<String> lines = new ArrayList<>();
        for (ActionCableConnection connection : connections.values()) {
            if (value.equals(connection.identifiers().get(key))) {
                lines.add("connection " + connection.id + ": answered " + connection.answered() + ", closing "
                        + connection.outbox.isClosing() + ", socket closed " + connection.outbox.isWireClosed()
                        + ", pending bytes " + connection.outbox.pendingBytes());
            }
        }
        return lines;
    }

    /** Tells the application's observers; their failure is theirs (logged), never the connection's. */
    void fire(CableConnectionEvent event) {
        try {
            connectionEvents.fire(event);
        } catch (RuntimeException e) {
            listenerFailure("connection-event", "An observer of " + event.getClass().getSimpleName() + " for session "
                    + event.sessionId() + " failed: " + e);
        }
    }

    /**
     * Disconnects {@code connection} with {@code token_expired} at {@code expiresAt}; returns what cancels it (when
     * the connection closes first).
     */
    Runnable expireAt(ActionCableConnection connection, Instant expiresAt) {
        long delay = Math.max(1, Duration.between(Instant.now(), expiresAt).toMillis());
        long timer = vertx.setTimer(delay, ignored -> connection.expired());
        return () -> vertx.cancelTimer(timer);
    }

    /** Identifiers with at least one stream on this node (each has one frame encoder). */
    public int encoderCount() {
        return frames.size();
    }

    JsonPayloads json() {
        return engine.json();
    }

    CableEngine engine() {
        return engine;
    }

    ChannelRegistry registry() {
        return registry;
    }

    void invalid(String message) {
        engine.recordFailure(Failure.INVALID, message);
    }

    /** Bad input of one cause (a constant): rate-limited apart from the other causes, so one cannot hide another. */
    void invalid(String cause, String message) {
        engine.recordFailure(Failure.INVALID, cause, message);
    }

    void listenerFailure(String message) {
        engine.recordFailure(Failure.LISTENER, message);
    }

    /** An application callback's failure of one cause (a constant: "action", "subscribed"...). */
    void listenerFailure(String cause, String message) {
        engine.recordFailure(Failure.LISTENER, cause, message);
    }

    /** A client refused by a bound: counted by reason, logged at most once per second per reason. */
    void refused(CableStats.Refusal reason, String message) {
        engine.refused(reason, message);
    }

    long maxIdentifierSize() {
        return maxIdentifierSize;
    }

    int maxSubscriptions() {
        return maxSubscriptions;
    }

    CommandAdmission.Limits commandLimits() {
        return commandLimits;
    }

    /** This node's whispers: sending them, and handing them to its subscriptions. */
    Whispers whispers() {
        return whispers;
    }

    boolean whispersEnabled() {
        return whispersEnabled;
    }

    int whisperRate() {
        return whisperRate;
    }

    int whisperBurst() {
        return whisperBurst;
    }

    /**
     * A defect, not bad input: logged with its stack trace, at most once per second, never suppressed by a flood of
     * another kind or cause of failure.
     */
    void connectionFailure(String message, Throwable failure) {
        if (failure == null) {
            engine.recordFailure(Failure.LISTENER, "connection", message);
        } else {
            engine.failureLog().record(Failure.LISTENER, "connection", message, failure);
        }
    }

    EncodedFrames acquireFrames(String identifier, boolean extended) {
        return frames.acquire(identifier, extended);
    }

    void releaseFrames(String identifier, boolean extended) {
        frames.release(identifier, extended);
    }

    /**
     * Pings the welcomed connections, as Rails does: a client that was never welcomed gets no pings, so its connection
     * monitor calls it stale and reconnects instead of waiting forever. A connection left unanswered for longer than
     * the identification timeout is closed with 1011 (the client reconnects) and logged as the defect it is.
     */
    private void ping() {
        if (connections.isEmpty()) {
            return;
        }
        String frame = Frames.ping(TimeUnit.MILLISECONDS.toSeconds(System.currentTimeMillis()));
        for (ActionCableConnection connection : connections.values()) {
            if (connection.outbox.isWireClosed()) {
                // Its socket closed without its close handler running (a close racing the upgrade): it is gone, and
                // its streams must stop, as WebSocketStreams#sweep does for endpoint connections.
                if (connections.remove(connection.id, connection)) {
                    connection.closed();
                }
            } else if (connection.answered()) {
                connection.outbox.send(frame);
            } else if (connection.unansweredFor(openBoundNanos)) {
                connectionFailure("Action Cable connection " + connection.id + " was neither welcomed nor refused within"
                        + " quarkus.cable.action-cable.identification-timeout (" + config.actionCable()
                                .identificationTimeout()
                        + "); closing it with 1011 so that the client reconnects", null);
                connection.outbox.close(ActionCableConnection.INTERNAL_ERROR, "cable: not identified in time");
            }
        }
    }

    /** The route's handler: upgrades a WebSocket request; other requests get 404. */
    void handle(RoutingContext context) {
        if (!config.actionCable().enabled()) {
            context.next();
            return;
        }
        if (!"websocket".equalsIgnoreCase(context.request().getHeader(HttpHeaders.UPGRADE))) {
            context.response().setStatusCode(404).end("Page not found");
            return;
        }
        if (origins.refusal(context.request(), "the Action Cable endpoint " + context.request().path()) != null) {
            // A page of another site: answered before identification.
            context.response().setStatusCode(RequestOrigins.FORBIDDEN)
                    .end("Forbidden: this page's origin may not open the cable");
            return;
        }
        ConnectionIdentification.Upgrade upgrade = ConnectionIdentification.upgrade(context);
        HttpConnection upgraded = context.request().connection();
        context.request().toWebSocket().onSuccess(socket -> open(socket, upgraded, upgrade)).onFailure(failure -> {
            // Its own cause, so that a flood of bad frames cannot hide it; and the connection ends: a client that got
            // its 101 before the failure would otherwise wait on a socket nothing serves, neither welcomed nor closed.
            invalid("upgrade", "Action Cable upgrade failed: " + failure + "; closing the connection");
            upgraded.close();
        });
    }

    private void open(ServerWebSocket socket, HttpConnection upgraded, ConnectionIdentification.Upgrade upgrade) {
        if (!ActionCableProtocol.serves(socket.subProtocol())) {
            // actioncable-unsupported: the client closes for good; nothing else is said on this socket.
            socket.close((short) 1000, "unsupported protocol");
            return;
        }
        String id = Long.toString(ids.incrementAndGet());
        SharedFrameWriter sharedFrames = SharedFrameWriter.of(socket, upgraded);
        ConnectionOutbox outbox = new ConnectionOutbox(new ServerSocketWire(socket, sharedFrames,
                why -> engine.recordFailure(Failure.SEND, "Action Cable connection " + id + ": " + why)),
                outboxLimits, (reason, why) -> slowConsumer(id, reason, why));
        ActionCableConnection connection = new ActionCableConnection(id, outbox, this,
                ActionCableProtocol.extended(socket.subProtocol()));
        // Handlers first, registration after: Vert.x refuses a handler on a socket that closed during the upgrade
        // ("WebSocket is closed"), and its close handler would never run to remove a connection registered before.
        // This runs on the socket's event loop, so the socket cannot close between the handlers and the registration.
        try {
            socket.closeHandler(ignored -> {
                connections.remove(id);
                connection.closed();
            });
            socket.exceptionHandler(failure -> {
                if (failure instanceof CorruptedWebSocketFrameException corrupted) {
                    // A frame over the server's frame size (or a protocol violation): Vert.x's decoder does not close
                    // on it, and the client would see the connection drop (1006). Answer with the RFC 6455 code the
                    // decoder chose: 1009 for a frame too large.
                    int code = corrupted.closeStatus().code();
                    if (code == MESSAGE_TOO_BIG) {
                        refused(CableStats.Refusal.COMMAND_SIZE, "Action Cable connection " + id
                                + " sent a frame over the server's WebSocket frame size; closing it with 1009");
                    } else {
                        invalid("frame", "Action Cable connection " + id + " violated the WebSocket protocol ("
                                + corrupted.getMessage() + "); closing it with " + code);
                    }
                    outbox.close(code, code == MESSAGE_TOO_BIG ? "command too large" : "protocol error");
                    return;
                }
                LOG.debugf("Action Cable connection %s: %s", id, failure);
            });
            socket.binaryMessageHandler(ignored -> invalid("Action Cable connection " + id
                    + " sent a binary frame; only text frames are commands"));
            socket.textMessageHandler(text -> {
                long bytes = text.length() > maxCommandSize ? maxCommandSize + 1 : ConnectionOutbox.utf8Length(text);
                if (bytes > maxCommandSize) {
                    refused(CableStats.Refusal.COMMAND_SIZE, "Action Cable connection " + id
                            + " sent a frame over quarkus.cable.action-cable.max-command-size (" + maxCommandSize
                            + " bytes); closing it with 1009");
                    outbox.close(MESSAGE_TOO_BIG, "command too large");
                    return;
                }
                connection.received(text, bytes);
            });
        } catch (IllegalStateException closedDuringUpgrade) {
            LOG.debugf("Action Cable connection %s closed during the upgrade", id);
            return;
        }
        if (socket.isClosed()) {
            return;
        }
        connections.put(id, connection);
        connection.open(() -> identifier.identify(upgrade));
    }

    private void slowConsumer(String id, CableStats.Refusal reason, String why) {
        // Its streams stop now, not when the socket has closed: a client that does not read may never complete the
        // close handshake, and its subscriptions would go on encoding frames for it that are dropped.
        ActionCableConnection connection = connections.get(id);
        if (connection != null) {
            connection.closed();
        }
        engine.stats().refused(reason);
        engine.recordFailure(Failure.SLOW_CONSUMER, reason.tag(), "Closing Action Cable connection " + id
                + " as too slow: " + why + " (quarkus.cable.websocket.*)");
    }
}
