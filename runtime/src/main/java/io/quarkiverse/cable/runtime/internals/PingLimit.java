package io.quarkiverse.cable.runtime.internals;

import java.util.Map;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.quarkiverse.cable.runtime.actioncable.ActionCableEndpoint;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.websocket.StreamingEndpoints;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.websockets.next.WebSocketConnection;
import io.quarkus.websockets.next.runtime.ConnectionManager;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.core.net.impl.VertxHandler;

/**
 * Bounds the pongs a client can make a WebSocket connection of the cable queue
 * ({@code quarkus.cable.websocket.max-pings-per-second}, {@link PingFlood}): every connection of the Action Cable
 * endpoint and of the streaming endpoints ({@code @StreamFrom}, {@code CableStreams}), from the moment WebSockets Next
 * adds it, before any of its frames is read. Pings within the bound go on to Vert.x (its pong) and to an endpoint's
 * own {@code @OnPingMessage}. A connection past the bound is closed with 1008 {@code cable: too many pings}, counted
 * as {@code cable.limits.refusals{reason="ping_rate"}}.
 * <p>
 * The counter goes into the Netty pipeline of the HTTP connection the socket was upgraded from
 * ({@link UpgradedConnections}); its class, {@code ConnectionBase}, is Vert.x internal, as for
 * {@link SharedFrameWriter}: a connection of another kind is not counted.
 */
@Singleton
public class PingLimit {

    /** The close reason of a connection that pinged past the bound (code 1008). */
    public static final String REASON = "cable: too many pings";
    static final int POLICY_VIOLATION = 1008;
    private static final String HANDLER_NAME = "cable-ping-limit";

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    Instance<ConnectionManager> connections;

    @Inject
    Instance<StreamingEndpoints> endpoints;

    private int maxPerSecond;

    @Inject
    void configure(CableRuntimeConfig config) {
        maxPerSecond = config.websocket().maxPingsPerSecond();
    }

    void start(@Observes StartupEvent startup) {
        if (!connections.isResolvable()) {
            return;
        }
        connections.get().addListener(new ConnectionManager.ConnectionListener() {
            @Override
            public void connectionAdded(String endpoint, WebSocketConnection connection) {
                // Runs synchronously while WebSockets Next adds the connection, on its event loop, before any frame
                // after the handshake is read.
                if (ActionCableEndpoint.ENDPOINT_ID.equals(connection.endpointId()) || (endpoints.isResolvable()
                        && endpoints.get().contains(connection.endpointId()))) {
                    guard(connection);
                }
            }

            @Override
            public void connectionRemoved(String endpoint, String connectionId) {
                // The counter goes with the channel.
            }
        });
    }

    /** Counts {@code connection}'s pings from now on. */
    void guard(WebSocketConnection connection) {
        HttpConnection upgraded = connection.userData().get(UpgradedConnections.KEY);
        if (!(upgraded instanceof ConnectionBase base)) {
            return;
        }
        ChannelPipeline pipeline = base.channel().pipeline();
        String vertx = null;
        for (Map.Entry<String, ChannelHandler> handler : pipeline) {
            if (handler.getValue() instanceof VertxHandler) {
                vertx = handler.getKey();
            }
        }
        if (vertx == null || pipeline.get(HANDLER_NAME) != null) {
            return; // not a pipeline Vert.x set up as expected (or the channel is gone): left alone
        }
        pipeline.addBefore(vertx, HANDLER_NAME, new PingFlood(maxPerSecond, () -> flooded(connection)));
    }

    private void flooded(WebSocketConnection connection) {
        engine.refused(CableStats.Refusal.PING_RATE, "WebSocket connection "
                + connection.id() + " sent more pings than quarkus.cable.websocket.max-pings-per-second (" + maxPerSecond
                + ", in one second or while its writes were backed up); closing it with 1008");
    }
}
