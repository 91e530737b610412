package io.quarkiverse.cable.runtime.internals;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.quarkus.websockets.next.runtime.ConnectionManager;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.WebSocketBase;

/**
 * Notices a WebSocket client that stopped answering, for both WebSocket front ends: every
 * {@code quarkus.cable.websocket.ping-interval} each watched connection gets an RFC 6455 ping frame, which browsers and
 * every conforming client answer with a pong without code of their own; a connection that sent nothing at all (no
 * pong, no frame) for {@code pong-timeout} is closed with 1001, so its presence is handed to the TTL and its streams
 * stop. Without it a client that vanished without a FIN (a laptop lid, a mobile network switch, a proxy that stopped
 * forwarding) stays "connected" until TCP gives up, about 15 minutes.
 * <p>
 * Watched: the connections the front ends name ({@link #watch}): every Action Cable connection, and every connection
 * of a streaming endpoint ({@code @StreamFrom}, {@code CableStreams}) from its start. Pongs are heard on the socket
 * under the connection ({@link SocketAccess}); WebSockets Next installs its own pong handler (the endpoint's
 * {@code @OnPongMessage}) while it sets the connection up, so the cable's goes in after that, on the connection's
 * context. An endpoint with an {@code @OnPongMessage} of its own keeps it: the front end does not watch it.
 */
@Singleton
public class Liveness {

    /** The close reason of a connection that stopped answering (code 1001). */
    public static final String NO_PONG_REASON = "cable: no pong";
    static final int GOING_AWAY = 1001;

    private static final Logger LOG = Logger.getLogger(Liveness.class);
    private static final Buffer PING = Buffer.buffer(new byte[0]);

    @Inject
    Vertx vertx;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    Instance<SocketAccess> socketAccess;

    @Inject
    Instance<ConnectionManager> connections;

    private final Map<String, Watch> watched = new ConcurrentHashMap<>();
    private long intervalMillis;
    private long timeoutNanos;
    private long timer = -1;

    /** One watched connection: when the cable last heard from it. */
    private static final class Watch {
        final WebSocketConnection connection;
        volatile long heardNanos = System.nanoTime();

        Watch(WebSocketConnection connection) {
            this.connection = connection;
        }
    }

    /** Reads the settings once; {@code CableConfigCheck} validated them when the cable was built. */
    @Inject
    void configure(CableRuntimeConfig config) {
        intervalMillis = config.websocket().pingInterval().toMillis();
        timeoutNanos = config.websocket().pongTimeout().toNanos();
    }

    void start(@Observes StartupEvent startup) {
        timer = vertx.setPeriodic(intervalMillis, ignored -> round());
        if (connections.isResolvable()) {
            connections.get().addListener(new ConnectionManager.ConnectionListener() {
                @Override
                public void connectionAdded(String endpoint, WebSocketConnection connection) {
                    // The front ends choose what to watch.
                }

                @Override
                public void connectionRemoved(String endpoint, String connectionId) {
                    watched.remove(connectionId);
                }
            });
        }
    }

    void stop(@Observes ShutdownEvent shutdown) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    /** Watches {@code connection} from now on (again: nothing); a closed connection is not watched. */
    public void watch(WebSocketConnection connection) {
        if (connection.isClosed() || watched.containsKey(connection.id())) {
            return;
        }
        Watch watch = new Watch(connection);
        if (watched.putIfAbsent(connection.id(), watch) != null) {
            return;
        }
        WebSocketBase socket = socketAccess.isResolvable() ? socketAccess.get().socketOf(connection) : null;
        if (socket == null) {
            // Without the socket no pong is heard: such a connection is pinged (browsers keep it open through idle
            // proxies), never closed for silence.
            watch.heardNanos = Long.MAX_VALUE;
            return;
        }
        Context context = Vertx.currentContext();
        Runnable listen = () -> {
            if (connection.isClosed()) {
                watched.remove(connection.id(), watch); // closed meanwhile (a rejected upgrade): nothing to hear
                return;
            }
            try {
                socket.pongHandler(pong -> watch.heardNanos = System.nanoTime());
            } catch (IllegalStateException closed) {
                // Vert.x refuses handlers on a socket that closed since the check above: it is gone
                watched.remove(connection.id(), watch);
            }
        };
        if (context != null && context.isEventLoopContext()) {
            // After WebSockets Next's own set-up of this connection (which installs its pong handler) has finished.
            context.runOnContext(ignored -> listen.run());
        } else {
            listen.run();
        }
    }

    /** Heard from {@code connection} otherwise than by a pong (a command, a frame): it is alive. */
    public void heard(String connectionId) {
        Watch watch = watched.get(connectionId);
        if (watch != null && watch.heardNanos != Long.MAX_VALUE) {
            watch.heardNanos = System.nanoTime();
        }
    }

    private void round() {
        long now = System.nanoTime();
        watched.forEach((id, watch) -> {
            WebSocketConnection connection = watch.connection;
            if (connection.isClosed()) {
                watched.remove(id, watch);
            } else if (watch.heardNanos != Long.MAX_VALUE && now - watch.heardNanos > timeoutNanos) {
                watched.remove(id, watch);
                engine.stats().connectionUnresponsive();
                LOG.debugf("WebSocket connection %s sent nothing, not even a pong, for %d ms: closing it", id,
                        TimeUnit.NANOSECONDS.toMillis(now - watch.heardNanos));
                WebSocketWire.closeQuietly(connection, new CloseReason(GOING_AWAY, NO_PONG_REASON));
                // A client that answers nothing will not answer the close either: the TCP connection goes now, not
                // after the server's closing timeout, so the socket, its streams and its presence are released at once.
                HttpConnection upgraded = connection.userData().get(UpgradedConnections.KEY);
                if (upgraded != null) {
                    upgraded.close();
                }
            } else {
                connection.sendPing(PING).subscribe().with(ignored -> {
                }, failure -> {
                    // The connection is ending: its close is seen on the next round.
                });
            }
        });
    }
}
