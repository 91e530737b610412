package io.quarkiverse.cable.runtime;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.runtime.actioncable.ActionCableEndpoint;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.internals.PingFlood;
import io.quarkiverse.cable.runtime.websocket.StreamingEndpoints;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.websockets.next.WebSocketConnection;
import io.quarkus.websockets.next.runtime.ConnectionManager;

/**
 * Bounds the pongs a client can make a WebSocket connection of the cable queue
 * ({@code quarkus.cable.websocket.max-pings-per-second}, {@link PingFlood}): every connection of the Action Cable
 * endpoint and of the streaming endpoints ({@code @StreamFrom}, {@code CableStreams}), from the moment WebSockets Next
 * adds it, before any of its frames is read. Pings within the bound go on to Vert.x (its pong) and to an endpoint's
 * own {@code @OnPingMessage}. A connection past the bound is closed with 1008 {@code cable: too many pings}, counted
 * as {@code cable.limits.refusals{reason="ping_rate"}}.
 * <p>
 * Here, in the assembly, because it names the front ends' endpoints; the counter itself ({@link PingFlood}) is theirs.
 */
@Singleton
public class PingLimit {

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
                    PingFlood.guard(connection, maxPerSecond, () -> flooded(connection));
                }
            }

            @Override
            public void connectionRemoved(String endpoint, String connectionId) {
                // The counter goes with the channel.
            }
        });
    }

    private void flooded(WebSocketConnection connection) {
        engine.refused(CableStats.Refusal.PING_RATE, "WebSocket connection "
                + connection.id() + " sent more pings than quarkus.cable.websocket.max-pings-per-second (" + maxPerSecond
                + ", in one second or while its writes were backed up); closing it with 1008");
    }
}
