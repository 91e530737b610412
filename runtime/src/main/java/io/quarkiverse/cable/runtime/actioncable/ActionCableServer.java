package io.quarkiverse.cable.runtime.actioncable;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.CableConnections;
import io.quarkiverse.cable.CableIdentification;
import io.quarkiverse.cable.CableRequest;
import io.quarkiverse.cable.TurboStreams;
import io.quarkiverse.cable.runtime.CableEngine;
import io.quarkiverse.cable.runtime.CableStats;
import io.quarkiverse.cable.runtime.Internal;
import io.quarkiverse.cable.runtime.config.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.websocket.ConnectionOutbox;
import io.quarkiverse.cable.runtime.websocket.EncodedFrames;
import io.quarkiverse.cable.runtime.websocket.WebSocketStreams;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The {@code actioncable-v1-json} endpoint at {@code quarkus.cable.mount-path}: a Vert.x route that upgrades to a
 * WebSocket (the sub-protocol is negotiated by the HTTP server, which lists {@code actioncable-v1-json} and the
 * {@code actioncable-unsupported} sentinel), pings every connection every 3 s, and keeps the per-identifier frame
 * encoders so a broadcast is encoded once per identifier per node.
 */
@Singleton
public class ActionCableServer implements CableConnections, HttpServerOptionsCustomizer {

    static final String PROTOCOL = "actioncable-v1-json";
    static final String UNSUPPORTED = "actioncable-unsupported";
    private static final Logger LOG = Logger.getLogger(ActionCableServer.class);
    private static final long PING_MILLIS = 3000;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    ChannelRegistry registry;

    @Inject
    WebSocketStreams streams;

    @Inject
    CableRuntimeConfig config;

    @Inject
    Instance<CableIdentification> identification;

    @Inject
    Instance<TurboStreams> turbo;

    @Inject
    Vertx vertx;

    private final Map<String, ActionCableConnection> connections = new ConcurrentHashMap<>();
    private final Map<String, Counted> frames = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private long pingTimer = -1;
    private long maxCommandSize;

    private static final class Counted {
        final EncodedFrames frames;
        int references;

        Counted(String encodedIdentifier) {
            frames = new EncodedFrames(message -> Frames.broadcast(encodedIdentifier, message));
        }
    }

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        addProtocols(options);
    }

    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        addProtocols(options);
    }

    private static void addProtocols(HttpServerOptions options) {
        List<String> present = options.getWebSocketSubProtocols() == null ? List.of()
                : options.getWebSocketSubProtocols();
        for (String protocol : List.of(PROTOCOL, UNSUPPORTED)) {
            if (!present.contains(protocol)) {
                options.addWebSocketSubProtocol(protocol);
            }
        }
    }

    void route(@Observes Router router) {
        if (!config.actionCable().enabled()) {
            return;
        }
        maxCommandSize = config.actionCable().maxCommandSize().asLongValue();
        router.route(config.mountPath()).handler(this::upgrade);
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

    CableEngine engine() {
        return engine;
    }

    ChannelRegistry registry() {
        return registry;
    }

    void invalid(String message) {
        engine.recordFailure(CableStats.Failure.INVALID, message);
    }

    void listenerFailure(String message) {
        engine.recordFailure(CableStats.Failure.LISTENER, message);
    }

    /** The stream name of a signed Turbo stream name, or null when it cannot be verified. */
    String verifyTurbo(Object signedStreamName) {
        if (!(signedStreamName instanceof String signed) || config.turbo().signingKey().isEmpty()) {
            return null;
        }
        return turbo.get().verify(signed);
    }

    EncodedFrames acquireFrames(String identifier) {
        return frames.compute(identifier, (key, counted) -> {
            Counted result = counted == null ? new Counted(io.vertx.core.json.Json.encode(identifier)) : counted;
            result.references++;
            return result;
        }).frames;
    }

    void releaseFrames(String identifier) {
        frames.computeIfPresent(identifier, (key, counted) -> --counted.references == 0 ? null : counted);
    }

    /** Identifiers with at least one stream on this node (each has one frame encoder). */
    public int encoderCount() {
        return frames.size();
    }

    private void ping() {
        if (connections.isEmpty()) {
            return;
        }
        String frame = Frames.ping(TimeUnit.MILLISECONDS.toSeconds(System.currentTimeMillis()));
        connections.values().forEach(connection -> connection.outbox.send(frame));
    }

    private void upgrade(RoutingContext context) {
        HttpServerRequest request = context.request();
        if (!"websocket".equalsIgnoreCase(request.getHeader(HttpHeaders.UPGRADE))) {
            context.response().setStatusCode(404).end("Page not found");
            return;
        }
        SecurityIdentity identity = context.user() instanceof QuarkusHttpUser user ? user.getSecurityIdentity() : null;
        Uni<SecurityIdentity> deferred = context.get(QuarkusHttpUser.DEFERRED_IDENTITY_KEY);
        CableRequest cableRequest = cableRequest(context, identity);
        request.toWebSocket().onSuccess(socket -> open(socket, cableRequest, deferred))
                .onFailure(failure -> invalid("Action Cable upgrade failed: " + failure));
    }

    private void open(ServerWebSocket socket, CableRequest request, Uni<SecurityIdentity> deferred) {
        String protocol = socket.subProtocol();
        if (protocol != null && !PROTOCOL.equals(protocol)) {
            // actioncable-unsupported: the client closes for good; nothing else is said on this socket.
            socket.close((short) 1000, "unsupported protocol");
            return;
        }
        String id = Long.toString(ids.incrementAndGet());
        ConnectionOutbox outbox = new ConnectionOutbox(new ConnectionOutbox.Wire() {
            @Override
            public void write(Object frame, Runnable done) {
                socket.writeTextMessage((String) frame).onComplete(ignored -> done.run());
            }

            @Override
            public void close(int code, String reason) {
                socket.close((short) code, reason);
            }
        }, streams.limits(), why -> invalid("Closing Action Cable connection " + id + " as too slow: " + why));
        ActionCableConnection connection = new ActionCableConnection(id, outbox, this);
        connections.put(id, connection);
        socket.closeHandler(ignored -> {
            connections.remove(id);
            connection.closed();
        });
        socket.exceptionHandler(failure -> LOG.debugf("Action Cable connection %s: %s", id, failure));
        socket.binaryMessageHandler(ignored -> invalid("Action Cable connection " + id
                + " sent a binary frame; only text frames are commands"));
        socket.textMessageHandler(text -> {
            if (text.length() > maxCommandSize
                    || text.getBytes(StandardCharsets.UTF_8).length > maxCommandSize) {
                invalid("Action Cable connection " + id + " sent a frame over quarkus.cable.action-cable.max-command-size ("
                        + maxCommandSize + " bytes); closing it");
                outbox.close(1009, "command too large");
                return;
            }
            connection.received(text);
        });
        connection.open(() -> identify(request, deferred));
    }

    private Map<String, String> identify(CableRequest request, Uni<SecurityIdentity> deferred) {
        CableRequest complete = request;
        if (request.identity() == null && deferred != null) {
            SecurityIdentity identity = deferred.await().atMost(java.time.Duration.ofSeconds(30));
            complete = new CableRequest(request.path(), request.headers(), request.cookies(), request.query(),
                    identity != null && !identity.isAnonymous() ? identity : null);
        }
        if (identification.isResolvable()) {
            return identification.get().identify(complete);
        }
        if (complete.identity() != null && !complete.identity().isAnonymous()) {
            return Map.of("user", complete.identity().getPrincipal().getName());
        }
        return Map.of();
    }

    private static CableRequest cableRequest(RoutingContext context, SecurityIdentity identity) {
        HttpServerRequest request = context.request();
        Map<String, List<String>> headers = new HashMap<>();
        request.headers().forEach(entry -> headers
                .computeIfAbsent(entry.getKey().toLowerCase(java.util.Locale.ROOT), key -> new ArrayList<>())
                .add(entry.getValue()));
        Map<String, String> cookies = new HashMap<>();
        for (Cookie cookie : request.cookies()) {
            cookies.put(cookie.getName(), cookie.getValue());
        }
        Map<String, List<String>> query = new HashMap<>();
        request.params().forEach(entry -> query.computeIfAbsent(entry.getKey(), key -> new ArrayList<>())
                .add(entry.getValue()));
        return new CableRequest(request.path(), Map.copyOf(headers), Map.copyOf(cookies), Map.copyOf(query),
                identity != null && !identity.isAnonymous() ? identity : null);
    }
}
