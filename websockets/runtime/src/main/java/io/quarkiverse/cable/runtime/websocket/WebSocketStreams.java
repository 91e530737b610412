package io.quarkiverse.cable.runtime.websocket;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.StreamCallback;
import io.quarkiverse.cable.StreamRequest;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.ConnectionOutbox;
import io.quarkiverse.cable.runtime.core.Delivery;
import io.quarkiverse.cable.runtime.core.EncodedFrames;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.core.LocalSessions;
import io.quarkiverse.cable.runtime.core.LocalSubscription;
import io.quarkiverse.cable.runtime.frontend.StreamAuthorizer;
import io.quarkiverse.cable.runtime.internals.Liveness;
import io.quarkiverse.cable.runtime.internals.SharedTextFrame;
import io.quarkiverse.cable.runtime.internals.SocketAccess;
import io.quarkiverse.cable.runtime.internals.WebSocketWire;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.quarkus.websockets.next.runtime.ConnectionManager;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Cable streams on WebSockets Next connections: {@link io.quarkiverse.cable.StreamFrom} streams start when a connection
 * opens and everything stops when it closes (a synchronous connection listener, so no broadcast slips between the
 * open and the stream's start).
 * <p>
 * The fast path: without a callback, a stream's delivery runs on the dispatching thread and writes the frame, encoded
 * once per node, straight to the connection; no worker pool, no per-connection encoding, and per-connection order is
 * the dispatch order. With a callback, each connection and channel gets an ordered mailbox on a virtual thread.
 */
@Singleton
public class WebSocketStreams implements CableStreams, LocalSessions {

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    StreamingEndpoints endpoints;

    @Inject
    StreamAuthorizer authorizer;

    /**
     * Absent when the application has no WebSocket endpoint; then there is nothing to listen to. This is a runtime
     * internal of WebSockets Next, used on purpose: its listener runs synchronously while a connection is added, before
     * any message can be sent to it, so {@code @StreamFrom} streams start before an early broadcast. The public
     * {@code @Observes @Open}/{@code @Closed} connection events are fired asynchronously, which would let a stream
     * miss broadcasts sent right after the handshake.
     */
    @Inject
    Instance<ConnectionManager> connections;

    @Inject
    Vertx vertx;

    @Inject
    Liveness liveness;

    /** Generated at build time ({@link SocketAccess}); unresolvable only if the build step did not run. */
    @Inject
    Instance<SocketAccess> socketAccess;

    private final Map<String, StreamingConnection> streamingConnections = new ConcurrentHashMap<>();
    private EncodedFrames frames;
    private SocketAccess sockets;
    private ConnectionOutbox.OutboxLimits limits;
    private long stallTimer = -1;
    private StreamPresence presence;
    private ExpiringConnections expiring;

    /** Reads the settings once; {@code CableConfigCheck} validated them when the cable was built. */
    @Inject
    void configure(CableRuntimeConfig config) {
        presence = new StreamPresence(engine, config.limits().maxSubscriptions(),
                config.presence().changesPerSecond());
        expiring = new ExpiringConnections(vertx);
        limits = ConnectionOutbox.OutboxLimits.of(config);
        sockets = SocketAccess.of(socketAccess, config.websocket().sharedFrames());
        // Shared frames: a text broadcast becomes UTF-8 once per node, and each connection writes a view of it.
        frames = sockets == null ? new EncodedFrames() : new EncodedFrames(SharedTextFrame.STREAM_FRAMES);
    }

    void listen(@Observes StartupEvent startup) {
        // A client that stalls after the last frame it was sent is found without waiting for another frame.
        long period = Math.max(100, TimeUnit.NANOSECONDS.toMillis(limits.stallTimeoutNanos()) / 2);
        stallTimer = vertx.setPeriodic(period, ignored -> sweep());
        if (!connections.isResolvable()) {
            return;
        }
        connections.get().addListener(new ConnectionManager.ConnectionListener() {
            @Override
            public void connectionAdded(String endpoint, WebSocketConnection connection) {
                // The listener's first argument names the generated endpoint class; the id the templates are
                // registered under is the connection's endpoint id.
                startTemplates(endpoints.templates(connection.endpointId()), connection);
                if (endpoints.watchesPongs(connection.endpointId())) {
                    liveness.watch(connection); // a client that vanished without closing is noticed
                }
                if (endpoints.contains(connection.endpointId())) {
                    expiring.added(connection, UpgradeIdentity.identity(connection.userData()));
                }
            }

            @Override
            public void connectionRemoved(String endpoint, String connectionId) {
                stopAll(connectionId);
                presence.closed(connectionId);
                expiring.removed(connectionId);
            }
        });
    }

    /**
     * Closes stalled outboxes, and stops the streams of connections whose socket closed without the close listener
     * running: a client that leaves while WebSockets Next is still setting the connection up (a reset right after
     * the upgrade) gets no close handler, so only its socket's state tells that it is gone.
     */
    private void sweep() {
        streamingConnections.forEach((connectionId, connection) -> {
            if (connection.outbox().isWireClosed()) {
                stopAll(connectionId);
            } else {
                connection.outbox().checkStalled();
            }
        });
        presence.sweep();
    }

    void cancelStallChecks(@Observes ShutdownEvent shutdown) {
        if (stallTimer >= 0) {
            vertx.cancelTimer(stallTimer);
        }
    }

    @Override
    public Uni<Void> start(WebSocketConnection connection, String channel) {
        return start(connection, channel, null);
    }

    @Override
    public Uni<Void> start(WebSocketConnection connection, String channel, StreamCallback callback) {
        // Started at the call, as Action Cable's stream_from: a caller that drops the Uni still gets its stream.
        return Uni.createFrom().completionStage(startStage(connection, channel, callback));
    }

    private CompletionStage<Void> startStage(WebSocketConnection connection, String channel, StreamCallback callback) {
        Objects.requireNonNull(connection, "Cable stream connection must not be null");
        CompletionStage<Void> started = attempt(connection, channel, callback);
        // A refusal is the failed stage; the application answers its client (the documented pattern recovers it).
        // It is logged here, through the cable's limiter and escaping: the channel is the client's text.
        started.whenComplete((ignored, failure) -> {
            Throwable cause = failure instanceof java.util.concurrent.CompletionException wrapped ? wrapped.getCause()
                    : failure;
            if (cause instanceof CableException refused) {
                engine.recordFailure(Failure.INVALID, "stream-start", "CableStreams.start refused '" + channel
                        + "' on WebSocket connection " + connection.id() + ": " + refused.getMessage());
            }
        });
        return started;
    }

    private CompletionStage<Void> attempt(WebSocketConnection connection, String channel, StreamCallback callback) {
        Context caller = Vertx.currentContext();
        try {
            CableException refused = refusal(connection, channel);
            if (refused != null) {
                return CompletableFuture.failedFuture(refused);
            }
            if (!authorizer.active()) {
                return onContext(startStream(connection, channel, callback), caller);
            }
            // The bean may block: it answers on its own virtual thread, and the stream starts from there.
            CompletableFuture<Void> started = new CompletableFuture<>();
            authorizer.decide(streamRequest(connection, channel)).thenAccept(allowed -> {
                if (!allowed) {
                    started.completeExceptionally(new CableException.Forbidden(channel));
                    return;
                }
                try {
                    startStream(connection, channel, callback).whenComplete((ignored, failure) -> {
                        if (failure == null) {
                            started.complete(null);
                        } else {
                            started.completeExceptionally(failure);
                        }
                    });
                } catch (CableException e) {
                    started.completeExceptionally(e);
                }
            });
            return onContext(started, caller);
        } catch (CableException e) {
            // The documented contract: every refusal is the failed stage, never an exception thrown at the call.
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The identity of a WebSockets Next connection as {@link io.quarkiverse.cable.CableIdentities} names it:
     * {@code user=<principal>} (the Action Cable default) when the upgrade recorded an authenticated identity, which
     * it does when the application has a {@code StreamAuthorization} bean; empty otherwise.
     */
    static Map<String, String> identity(WebSocketConnection connection) {
        io.quarkus.security.identity.SecurityIdentity identity = UpgradeIdentity.identity(connection.userData());
        return identity.isAnonymous() ? Map.of() : Map.of("user", identity.getPrincipal().getName());
    }

    /** Remote disconnect: closes (1000, "remote") every open WebSockets Next connection of exactly that identity. */
    @Override
    public int disconnectIdentity(Map<String, String> identifiers, boolean reconnect) {
        if (!connections.isResolvable()) {
            return 0;
        }
        List<WebSocketConnection> matching = connections.get().stream()
                .filter(connection -> identifiers.equals(identity(connection))).toList();
        // WebSockets Next has no reconnect hint: a plain close, which the application's client treats as it wants.
        matching.forEach(connection -> connection.close(new CloseReason(1000, "remote")).subscribe().with(ignored -> {
        }, failure -> engine.recordFailure(Failure.SEND, "remote-disconnect", "Cable: remote disconnect of connection "
                + connection.id() + " failed: " + failure)));
        return matching.size();
    }

    /** A {@link CableStreams#start} call as the application's bean sees it: the identity the upgrade had. */
    private static StreamRequest streamRequest(WebSocketConnection connection, String channel) {
        return new StreamRequest(channel, StreamRequest.Front.CABLE_STREAMS,
                UpgradeIdentity.identity(connection.userData()), connection.handshakeRequest().path(),
                UpgradeIdentity.pathParams(connection.userData()),
                UpgradeIdentity.lowerCaseHeaders(connection.handshakeRequest().headers()));
    }

    private CompletableFuture<Void> startStream(WebSocketConnection connection, String channel,
            StreamCallback callback) {
        if (connection.isClosed()) {
            return CompletableFuture.failedFuture(new CableException.InvalidMessage(
                    "Cannot stream '" + channel + "': connection " + connection.id() + " is closed"));
        }
        StreamingConnection streaming = streamingConnections.computeIfAbsent(connection.id(),
                id -> new StreamingConnection(new ConnectionOutbox(
                        new WebSocketWire(connection, sockets, why -> engine.recordFailure(Failure.SEND, "stream", why)),
                        limits, (reason, why) -> slowConsumer(connection, reason, why))));
        LocalSubscription existing = streaming.streams().get(channel);
        if (existing != null) {
            return existing.confirmed().toCompletableFuture();
        }
        // Its session is the connection's id: what Cable.excluding(connection.id()) leaves out.
        LocalSubscription subscription = engine.subscribe(channel,
                Delivery.forSession(connection.id(), delivery(connection, streaming.outbox(), callback)));
        LocalSubscription raced = streaming.streams().putIfAbsent(channel, subscription);
        if (raced != null) {
            subscription.close();
            return raced.confirmed().toCompletableFuture();
        }
        if (connection.isClosed()) {
            // Closed after the check above: the close listener may already have run, and nothing else would stop the
            // stream or remove the outbox this call created.
            stopAll(connection.id());
        }
        return subscription.confirmed().toCompletableFuture();
    }

    @Override
    public void stop(WebSocketConnection connection, String channel) {
        StreamingConnection streaming = streamingConnections.get(connection.id());
        if (streaming != null) {
            LocalSubscription subscription = streaming.streams().remove(channel);
            if (subscription != null) {
                subscription.close();
            }
        }
    }

    @Override
    public void stopAll(WebSocketConnection connection) {
        stopAll(connection.id());
    }

    @Override
    public Set<String> channels(WebSocketConnection connection) {
        StreamingConnection streaming = streamingConnections.get(connection.id());
        return streaming == null ? Set.of() : Set.copyOf(streaming.streams().keySet());
    }

    @Override
    public Uni<Void> confirmed(WebSocketConnection connection) {
        return Uni.createFrom().completionStage(confirmedStage(connection));
    }

    private CompletionStage<Void> confirmedStage(WebSocketConnection connection) {
        StreamingConnection streaming = streamingConnections.get(connection.id());
        if (streaming == null) {
            return CompletableFuture.completedFuture(null);
        }
        return onCallersContext(CompletableFuture.allOf(streaming.streams().values().stream()
                .map(subscription -> subscription.confirmed().toCompletableFuture())
                .toArray(CompletableFuture[]::new)));
    }

    /**
     * The poller confirms subscriptions on its own thread, and a stage completed there runs whatever was chained on it
     * there too: WebSockets Next sending an {@code @OnOpen} result, or user code. The poller must never run those (it
     * would stall every channel behind them), and they expect the caller's Vert.x context: complete on that context.
     */
    private static CompletionStage<Void> onCallersContext(CompletableFuture<Void> confirmation) {
        return onContext(confirmation, Vertx.currentContext());
    }

    private static CompletionStage<Void> onContext(CompletionStage<Void> stage, Context caller) {
        CompletableFuture<Void> confirmation = stage.toCompletableFuture();
        if (caller == null || confirmation.isDone()) {
            return confirmation;
        }
        CompletableFuture<Void> onCaller = new CompletableFuture<>();
        confirmation.whenComplete((ignored, failure) -> caller.runOnContext(nothing -> {
            if (failure == null) {
                onCaller.complete(null);
            } else {
                onCaller.completeExceptionally(failure);
            }
        }));
        return onCaller;
    }

    /**
     * Why {@code channel} may not be used on {@code connection}, whatever the authorization bean would say: a bad
     * name, or a channel reserved to the cable or to another identity; null when it may.
     */
    private CableException refusal(WebSocketConnection connection, String channel) {
        String problem = engine.channelProblem(channel);
        if (problem != null) {
            return new CableException.InvalidMessage(problem);
        }
        return IdentityChannels.refused(channel, identity(connection)) ? new CableException.Forbidden(channel) : null;
    }

    @Override
    public Uni<Void> joinPresence(WebSocketConnection connection, String channel, String presenceId, Object info) {
        return Uni.createFrom().completionStage(joinStage(connection, channel, presenceId, info));
    }

    private CompletionStage<Void> joinStage(WebSocketConnection connection, String channel, String presenceId,
            Object info) {
        Objects.requireNonNull(connection, "Cable presence connection must not be null");
        Context caller = Vertx.currentContext();
        try {
            CableException refused = refusal(connection, channel);
            if (refused != null) {
                return CompletableFuture.failedFuture(refused);
            }
            // As ChannelSubscription.joinPresence: the info is any object, as JSON (a String is a JSON string).
            String infoJson;
            try {
                infoJson = info == null ? null : engine.jsonText(info);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(new CableException.InvalidMessage(
                        "Cable presence join refused on '" + channel + "': its info cannot be written as JSON: "
                                + e.getMessage()));
            }
            String problem = engine.presence().problem(presenceId, infoJson);
            if (problem != null) {
                return CompletableFuture.failedFuture(new CableException.InvalidMessage(
                        "Cable presence join refused on '" + channel + "': " + problem));
            }
            return onContext(presence.join(connection, channel, presenceId, infoJson), caller);
        } catch (CableException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public Uni<Void> leavePresence(WebSocketConnection connection, String channel) {
        Objects.requireNonNull(connection, "Cable presence connection must not be null");
        Context caller = Vertx.currentContext();
        return Uni.createFrom().completionStage(onContext(presence.leave(connection, channel), caller));
    }

    @Override
    public int count() {
        return streamingConnections.size();
    }

    private void stopAll(String connectionId) {
        StreamingConnection streaming = streamingConnections.remove(connectionId);
        if (streaming != null) {
            streaming.streams().values().forEach(LocalSubscription::close);
            streaming.streams().clear();
        }
    }

    private void startTemplates(List<String> channelTemplates, WebSocketConnection connection) {
        if (channelTemplates.isEmpty()) {
            return;
        }
        List<String> channels = new java.util.ArrayList<>();
        for (String template : channelTemplates) {
            // A path parameter holding a separator would stream another channel than the template means.
            String unsafe = ChannelTemplate.unsafeParameter(template, connection::pathParam);
            String channel = ChannelTemplate.resolve(template, connection::pathParam);
            String problem = unsafe != null ? "Cable stream '" + template + "': " + unsafe
                    : channel.isEmpty() ? "Cable stream '" + template + "' resolved to an empty channel"
                            : engine.channelProblem(channel);
            if (problem != null) {
                reject(connection, problem);
                return;
            }
            if (IdentityChannels.refused(channel, identity(connection))) {
                reject(connection, "Cable stream '" + template + "' resolved to reserved channel '" + channel
                        + "' of another identity");
                return;
            }
            channels.add(channel);
        }
        if (authorizer.active() && !UpgradeIdentity.streamFromAllowed(connection.userData())) {
            // Decided during the upgrade (StreamAuthorizationUpgradeCheck); no decision at all refuses too.
            reject(connection, "the application's StreamAuthorization refused " + channels);
            return;
        }
        for (String channel : channels) {
            try {
                startStream(connection, channel, null);
            } catch (CableException e) {
                reject(connection, "Cable stream '" + channel + "' did not start: " + e.getMessage());
                return;
            }
        }
    }

    private void reject(WebSocketConnection connection, String problem) {
        engine.recordFailure(Failure.INVALID, "stream", "Closing WebSocket connection " + connection.id()
                + " on " + connection.handshakeRequest().path() + ": " + problem);
        stopAll(connection.id());
        // The log says why; the client hears only that the stream was refused (no settings, no internals).
        String reason = "cable: stream refused";
        // This runs inside the connection listener, while WebSockets Next is still initialising the connection on its
        // event loop: closing the socket here would make its next step (setting the message handlers) throw "WebSocket
        // is closed" into Vert.x and fail the upgrade instead of sending our close frame. Close once that step is done.
        Context context = Vertx.currentContext();
        if (context == null) {
            close(connection, reason);
        } else {
            context.runOnContext(ignored -> close(connection, reason));
        }
    }

    private static void close(WebSocketConnection connection, String reason) {
        connection.close(new CloseReason(ConnectionOutbox.POLICY_VIOLATION, reason)).subscribe().with(ignored -> {
        }, failure -> {
        });
    }

    private Delivery delivery(WebSocketConnection connection, ConnectionOutbox outbox, StreamCallback callback) {
        if (callback == null) {
            return Delivery.toOutbox(frames, outbox);
        }
        return Delivery.mailbox(message -> {
            Object frame = callback.apply(message, connection);
            if (frame instanceof String || frame instanceof byte[]) {
                outbox.send(frame);
            } else if (frame != null) {
                outbox.send(engine.jsonText(frame));
            }
        }, outbox.limits().maxPendingFrames(), (message, failure) -> engine.recordFailure(Failure.LISTENER,
                "stream-callback",
                "Cable stream callback on '" + message.channel() + "' failed for message " + message.id() + ": "
                        + failure));
    }

    private void slowConsumer(WebSocketConnection connection, CableStats.Refusal reason, String why) {
        engine.stats().refused(reason);
        engine.recordFailure(Failure.SLOW_CONSUMER, reason.tag(), "Closing WebSocket connection "
                + connection.id() + " as too slow: " + why + " (quarkus.cable.websocket.*)");
        stopAll(connection.id());
    }

}
