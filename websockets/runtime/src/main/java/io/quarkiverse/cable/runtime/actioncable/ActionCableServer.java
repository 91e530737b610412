package io.quarkiverse.cable.runtime.actioncable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

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
import io.quarkiverse.cable.runtime.core.LocalSessions;
import io.quarkiverse.cable.runtime.internals.Liveness;
import io.quarkiverse.cable.runtime.internals.SocketAccess;
import io.quarkiverse.cable.runtime.internals.TextProtocolFrames;
import io.quarkiverse.cable.runtime.internals.WebSocketWire;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.Vertx;

/**
 * This node's Action Cable connections: opened by the endpoint at {@code quarkus.cable.action-cable.mount-path}
 * ({@link ActionCableEndpoint}, a WebSockets Next endpoint), each an {@link ActionCableConnection}; pinged every 3 s,
 * as Action Cable clients expect, and disconnected on request or at shutdown.
 */
@Singleton
public class ActionCableServer implements CableConnections, LocalSessions, ActionCableEndpoint.Callbacks {

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
    ActionCableConfig actionCable;

    @Inject
    Instance<CableIdentification> identification;

    @Inject
    Vertx vertx;

    @Inject
    Event<CableConnectionEvent> connectionEvents;

    @Inject
    Liveness liveness;

    /** Generated at build time ({@link SocketAccess}); unresolvable only if the build step did not run. */
    @Inject
    Instance<SocketAccess> socketAccess;

    private final Map<String, ActionCableConnection> connections = new ConcurrentHashMap<>();
    private final IdentifierFrames frames = new IdentifierFrames();
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
    private long maxWhisperSize;
    private long presenceInfoBytesPerSecond;
    private int presenceChangesPerSecond;
    private ConnectionOutbox.OutboxLimits outboxLimits;
    private SocketAccess sockets;

    @PostConstruct
    void configure() {
        maxCommandSize = actionCable.maxCommandSize().asLongValue();
        CableRuntimeConfig.Limits limits = config.limits();
        maxIdentifierSize = limits.maxIdentifierSize().asLongValue();
        maxSubscriptions = limits.maxSubscriptions();
        commandLimits = new CommandAdmission.Limits(limits.maxQueuedCommands(),
                limits.maxQueuedCommandBytes().asLongValue(), limits.commandRate(), limits.commandBurst());
        whisperRate = limits.whisperRate();
        whispersEnabled = actionCable.whispersEnabled();
        whispers = new Whispers(engine);
        whisperBurst = limits.whisperBurst();
        maxWhisperSize = limits.maxWhisperSize().asLongValue();
        presenceInfoBytesPerSecond = config.presence().infoBytesPerSecond().asLongValue();
        presenceChangesPerSecond = config.presence().changesPerSecond();
        identifier = new ConnectionIdentification(identification, actionCable.identificationTimeout());
        openBoundNanos = actionCable.identificationTimeout().toNanos();
        outboxLimits = ConnectionOutbox.OutboxLimits.of(config);
        sockets = SocketAccess.of(socketAccess, config.websocket().sharedFrames());
    }

    void start(@Observes StartupEvent startup) {
        if (registry.turboUsed() && config.turbo().signingKey().isEmpty()) {
            throw new ConfigurationException("The application uses TurboStreams, which signs stream names with"
                    + " quarkus.cable.turbo.signing-key; set it (a long random secret, the same on every node)",
                    java.util.Set.of("quarkus.cable.turbo.signing-key"));
        }
        if (actionCable.enabled()) {
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
    public List<SessionView> sessions() {
        List<SessionView> views = new ArrayList<>();
        for (ActionCableConnection connection : connections.values()) {
            views.add(connection.view());
        }
        return views;
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
    @Override
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

    ObjectMapper objectMapper() {
        return engine.objectMapper();
    }

    CableEngine engine() {
        return engine;
    }

    ChannelRegistry registry() {
        return registry;
    }

    /** Bad input of one cause (a constant): rate-limited apart from the other causes, so one cannot hide another. */
    @Override
    public void invalid(String cause, String message) {
        engine.recordFailure(Failure.INVALID, cause, message);
    }

    /** An application callback's failure of one cause (a constant: "action", "subscribed"...). */
    void listenerFailure(String cause, String message) {
        engine.recordFailure(Failure.LISTENER, cause, message);
    }

    /**
     * Quarkus Security refused a callback of a connection (an action's {@code @RolesAllowed}, a channel's): counted as
     * {@code forbidden}, one rate-limited line per {@code cause} (a constant), no stack trace: a client can ask for
     * it as often as its command rate allows.
     */
    void forbidden(String cause, String message) {
        engine.recordFailure(Failure.FORBIDDEN, cause, message);
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

    long maxWhisperSize() {
        return maxWhisperSize;
    }

    long presenceInfoBytesPerSecond() {
        return presenceInfoBytesPerSecond;
    }

    int presenceChangesPerSecond() {
        return presenceChangesPerSecond;
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
                        + " quarkus.cable.action-cable.identification-timeout (" + actionCable
                                .identificationTimeout()
                        + "); closing it with 1011 so that the client reconnects", null);
                connection.outbox.close(ActionCableConnection.INTERNAL_ERROR, "cable: not identified in time");
            }
        }
    }

    /**
     * A socket WebSockets Next upgraded at the mount path ({@link ActionCableEndpoint}): its connection is registered,
     * then identified on its own executor before any of its commands is handled.
     */
    @Override
    public void opened(WebSocketConnection socket) {
        if (!ActionCableProtocol.serves(socket.subprotocol())) {
            // actioncable-unsupported: the client closes for good; nothing else is said on this socket.
            WebSocketWire.closeQuietly(socket, new CloseReason(1000, "unsupported protocol"));
            return;
        }
        String id = socket.id();
        ConnectionOutbox outbox = new ConnectionOutbox(new WebSocketWire(socket, sockets,
                why -> engine.recordFailure(Failure.SEND, "action-cable", "Action Cable connection " + id + ": " + why)),
                outboxLimits, (reason, why) -> slowConsumer(id, reason, why));
        ActionCableConnection connection = new ActionCableConnection(id, outbox, this,
                ActionCableProtocol.extended(socket.subprotocol()));
        connections.put(id, connection);
        // Pinged with WebSocket ping frames, which both protocols' clients answer without code of their own: a client
        // that vanished without closing is closed after quarkus.cable.websocket.pong-timeout.
        liveness.watch(socket);
        // Taken out of the user data: held only until the connection is identified.
        ConnectionIdentification.Upgrade upgrade = new ConnectionIdentification.Upgrade(socket.handshakeRequest(),
                socket.userData().remove(ActionCableUpgradeCheck.IDENTITY));
        connection.open(() -> identifier.resolve(upgrade), identity -> identifier.identify(upgrade, identity));
    }

    /** A text frame: a command, when it is within {@code quarkus.cable.action-cable.max-command-size}. */
    @Override
    public void received(WebSocketConnection socket, String text) {
        ActionCableConnection connection = connections.get(socket.id());
        if (connection == null) {
            return; // refused at open (an unsupported protocol), or closed meanwhile
        }
        liveness.heard(socket.id()); // a command (the extended protocol's pong among them) is a sign of life too
        long bytes = text.length() > maxCommandSize ? maxCommandSize + 1 : ConnectionOutbox.utf8Length(text);
        if (bytes > maxCommandSize) {
            refused(CableStats.Refusal.COMMAND_SIZE, "Action Cable connection " + connection.id
                    + " sent a frame over quarkus.cable.action-cable.max-command-size (" + maxCommandSize
                    + " bytes); closing it with 1009");
            connection.outbox.close(MESSAGE_TOO_BIG, "command too large");
            return;
        }
        connection.received(text, bytes);
    }

    /** A binary message reached the endpoint (its pipeline was not guarded): refused as {@link CommandFrameLimits} does. */
    @Override
    public void binary(WebSocketConnection socket) {
        ActionCableConnection connection = connections.get(socket.id());
        if (connection != null) {
            framesRefused(connection.id, TextProtocolFrames.UNSUPPORTED_DATA,
                    "sent a binary frame; Action Cable is a text protocol");
            connection.outbox.close(TextProtocolFrames.UNSUPPORTED_DATA, "cable: binary frames unsupported");
        }
    }

    /** The socket closed: its streams stop, its channels hear {@code unsubscribed}. */
    @Override
    public void closed(WebSocketConnection socket) {
        ActionCableConnection connection = connections.remove(socket.id());
        if (connection != null) {
            connection.closed();
        }
    }

    /**
     * A failure WebSockets Next reports on the socket. A frame over the server's frame size (or another protocol
     * violation) is answered in the connection's pipeline ({@link CommandFrameLimits}) and never gets here; this
     * answers it with the RFC 6455 code Netty's decoder chose for a connection whose pipeline could not be guarded.
     */
    @Override
    public void failed(WebSocketConnection socket, Throwable failure) {
        ActionCableConnection connection = connections.get(socket.id());
        if (connection != null && failure instanceof CorruptedWebSocketFrameException corrupted) {
            int code = corrupted.closeStatus().code();
            if (code == MESSAGE_TOO_BIG) {
                refused(CableStats.Refusal.COMMAND_SIZE, "Action Cable connection " + connection.id
                        + " sent a frame over the server's WebSocket frame size; closing it with 1009");
            } else {
                invalid("frame", "Action Cable connection " + connection.id + " violated the WebSocket protocol ("
                        + corrupted.getMessage() + "); closing it with " + code);
            }
            connection.outbox.close(code, code == MESSAGE_TOO_BIG ? "command too large" : "protocol error");
            return;
        }
        LOG.debugf("Action Cable connection %s: %s", socket.id(), failure);
    }

    /**
     * {@link CommandFrameLimits} refused a frame of the connection and is closing it with {@code code}: counted (a
     * binary frame as {@code unsupported_data}, a message too big as {@code command_size}, a protocol violation as
     * invalid input), and its streams stop now rather than when its socket has closed, as for a slow consumer.
     */
    void framesRefused(String id, int code, String why) {
        String message = "Action Cable connection " + id + " " + why + "; closing it with " + code;
        switch (code) {
            case TextProtocolFrames.MESSAGE_TOO_BIG -> refused(CableStats.Refusal.COMMAND_SIZE, message);
            case TextProtocolFrames.UNSUPPORTED_DATA -> refused(CableStats.Refusal.UNSUPPORTED_DATA, message);
            default -> invalid("frame", message);
        }
        ActionCableConnection connection = connections.get(id);
        if (connection != null) {
            connection.closed();
        }
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
