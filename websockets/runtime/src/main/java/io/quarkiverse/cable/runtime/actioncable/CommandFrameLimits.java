package io.quarkiverse.cable.runtime.actioncable;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.runtime.internals.TextProtocolFrames;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.websockets.next.WebSocketConnection;
import io.quarkus.websockets.next.runtime.ConnectionManager;

/**
 * Puts {@link TextProtocolFrames} in front of every Action Cable connection from the moment WebSockets Next adds it,
 * before any of its frames is read: binary frames (1003), commands over
 * {@code quarkus.cable.action-cable.max-command-size} in fragments or one frame over the server's frame size (1009),
 * text that is not UTF-8 (1007) and reserved bits without an extension (1002) end the connection before Vert.x
 * assembles or decodes anything of them. The refusals are the server's to count ({@link ActionCableServer}).
 */
@Singleton
public class CommandFrameLimits {

    @Inject
    Instance<ConnectionManager> connections;

    @Inject
    ActionCableServer server;

    @Inject
    ActionCableConfig config;

    void start(@Observes StartupEvent startup) {
        if (!config.enabled() || !connections.isResolvable()) {
            return;
        }
        long maxCommandSize = config.maxCommandSize().asLongValue();
        connections.get().addListener(new ConnectionManager.ConnectionListener() {
            @Override
            public void connectionAdded(String endpoint, WebSocketConnection connection) {
                // Synchronously while WebSockets Next adds the connection, on its event loop, as ControlFrameLimit does.
                if (ActionCableEndpoint.ENDPOINT_ID.equals(connection.endpointId())) {
                    String id = connection.id();
                    TextProtocolFrames.guard(connection, maxCommandSize, (code, why) -> server.framesRefused(id, code,
                            why));
                }
            }

            @Override
            public void connectionRemoved(String endpoint, String connectionId) {
                // The handler goes with the channel.
            }
        });
    }
}
