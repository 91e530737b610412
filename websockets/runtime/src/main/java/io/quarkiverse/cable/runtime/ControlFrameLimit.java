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
import io.quarkiverse.cable.runtime.internals.ControlFrameFlood;
import io.quarkiverse.cable.runtime.websocket.StreamingEndpoints;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.websockets.next.WebSocketConnection;
import io.quarkus.websockets.next.runtime.ConnectionManager;

/**
 * Bounds the pongs a client can make a WebSocket connection of the cable queue
 * ({@code quarkus.cable.websocket.max-pings-per-second}) and the pongs it can make the event loop dispatch
 * ({@code quarkus.cable.websocket.max-pongs-per-second}), with {@link ControlFrameFlood}: every connection of the Action Cable
 * endpoint and of the streaming endpoints ({@code @StreamFrom}, {@code CableStreams}), from the moment WebSockets Next
 * adds it, before any of its frames is read. Pings and pongs within the bounds go on to Vert.x (its pong) and to an
 * endpoint's own {@code @OnPingMessage} or {@code @OnPongMessage}. A connection past a bound is closed with 1008
 * {@code cable: too many pings} or {@code cable: too many pongs}, counted as
 * {@code cable.limits.refusals{reason="ping_rate"}} or {@code {reason="pong_rate"}}.
 * <p>
 * Here, in the assembly, because it names the front ends' endpoints; the counter itself ({@link ControlFrameFlood}) is theirs.
 */
@Singleton
public class ControlFrameLimit {

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    Instance<ConnectionManager> connections;

    @Inject
    Instance<StreamingEndpoints> endpoints;

    private int maxPings;
    private int maxPongs;

    @Inject
    void configure(CableRuntimeConfig config) {
        maxPings = config.websocket().maxPingsPerSecond();
        maxPongs = config.websocket().maxPongsPerSecond();
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
                    ControlFrameFlood.guard(connection, maxPings, maxPongs, () -> pingsFlooded(connection),
                            () -> pongsFlooded(connection));
                }
            }

            @Override
            public void connectionRemoved(String endpoint, String connectionId) {
                // The counter goes with the channel.
            }
        });
    }

    private void pingsFlooded(WebSocketConnection connection) {
        engine.refused(CableStats.Refusal.PING_RATE, "WebSocket connection "
                + connection.id() + " sent more pings than quarkus.cable.websocket.max-pings-per-second (" + maxPings
                + ", in one second or while its writes were backed up); closing it with 1008");
    }

    private void pongsFlooded(WebSocketConnection connection) {
        engine.refused(CableStats.Refusal.PONG_RATE, "WebSocket connection " + connection.id()
                + " sent more pongs in one second than quarkus.cable.websocket.max-pongs-per-second (" + maxPongs
                + "); closing it with 1008");
    }
}
