package io.quarkiverse.cable.runtime.internals;

import org.jboss.logging.Logger;

import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.http.WebSocketBase;

/**
 * The generated {@link SocketAccess} as streams use it: if the call ever fails to link (another WebSockets Next whose
 * connection class changed) or meets a connection of another kind, shared frames are switched off for good, with one
 * warning, and every stream goes on through {@code sendText}.
 */
final class SharedFrameSockets implements SocketAccess {

    private static final Logger LOG = Logger.getLogger(SharedFrameSockets.class);

    private final SocketAccess generated;
    private volatile boolean off;

    SharedFrameSockets(SocketAccess generated) {
        this.generated = generated;
    }

    /** The connection's socket, or null: write through WebSockets Next instead. */
    @Override
    public WebSocketBase socketOf(WebSocketConnection connection) {
        if (off) {
            return null;
        }
        try {
            return generated.socketOf(connection);
        } catch (LinkageError | ClassCastException e) {
            off = true;
            LOG.warnf("Cable streams cannot reach the socket of WebSocket connection %s (%s); they write through "
                    + "WebSockets Next's sendText from now on, one conversion per connection", connection.id(), e);
            return null;
        }
    }
}
