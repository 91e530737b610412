package io.quarkiverse.cable.runtime.internals;

import java.nio.channels.ClosedChannelException;
import java.util.Map;

import org.jboss.logging.Logger;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameEncoder;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionEncoder;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocketBase;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * How one server socket writes {@link SharedTextFrame}s, chosen once per connection.
 * <ul>
 * <li>{@link WholeFrames}: the message's whole pre-encoded buffer goes to the socket's channel as it is, so each
 * connection costs one buffer write: no frame object, no header, no encoder. Chosen when the socket's pipeline frames
 * as RFC 6455 says (Netty's frame encoder) and nothing else rewrites frames: no extension negotiated.</li>
 * <li>{@link VertxFrames}: the shared payload in a Vert.x frame, which the socket's encoder frames (and compresses,
 * when the client negotiated {@code permessage-deflate}: compression is per connection, so a pre-encoded frame would
 * bypass it). Chosen for anything else.</li>
 * </ul>
 * The whole-frame write reaches Vert.x internals: the HTTP connection the socket was upgraded from (public API gives
 * it, {@code HttpServerRequest.connection()}; its class, {@code ConnectionBase}, is internal) and its Netty pipeline.
 * This is the one class that does, and anything it does not recognise gets the public path. Both paths go through
 * that connection's one write queue ({@code writeToChannel}) under its lock, as Vert.x's own frame writes do, so
 * frames written either way, or by {@code writeTextMessage}, leave in the order they were written.
 */
public abstract sealed class SharedFrameWriter {

    private static final Logger LOG = Logger.getLogger(SharedFrameWriter.class);

    /** Writes {@code frame}; completes when it is written, fails when the socket is closed or the write failed. */
    public abstract Future<Void> write(SharedTextFrame frame);

    /**
     * The way {@code socket}, under {@code connection}, writes shared frames. The handshake, and so any extension,
     * must be complete.
     */
    public static SharedFrameWriter of(WebSocketBase socket, WebSocketConnection connection) {
        return of(socket, connection.userData().get(UpgradedConnections.KEY));
    }

    /** The same, given the HTTP connection the socket was upgraded from (null: unknown). */
    static SharedFrameWriter of(WebSocketBase socket, HttpConnection upgraded) {
        // A server socket: a client's frames would be masked.
        if (socket instanceof ServerWebSocket && upgraded instanceof ConnectionBase connection
                && framesPlainly(connection.channelHandlerContext())) {
            LOG.debugf("WebSocket from %s: shared frames are written whole, one buffer per broadcast",
                    socket.remoteAddress());
            return new WholeFrames(socket, connection);
        }
        LOG.debugf("WebSocket from %s: shared frames are written as Vert.x frames (an extension such as "
                + "permessage-deflate was negotiated, or the socket is not one Vert.x's server upgraded)",
                socket.remoteAddress());
        return new VertxFrames(socket);
    }

    /** Netty's RFC 6455 frame encoder, unmasked as a server's, and no extension encoder after it. */
    private static boolean framesPlainly(ChannelHandlerContext context) {
        if (context == null) {
            return false;
        }
        boolean frameEncoder = false;
        for (Map.Entry<String, ChannelHandler> handler : context.pipeline()) {
            if (handler.getValue() instanceof WebSocketExtensionEncoder) {
                return false;
            }
            frameEncoder |= handler.getValue() instanceof WebSocket08FrameEncoder;
        }
        return frameEncoder;
    }

    /** The whole message, one buffer write per connection (a long one's fragments too: they cannot interleave). */
    public static final class WholeFrames extends SharedFrameWriter {

        private final WebSocketBase socket;
        private final ConnectionBase connection;

        private WholeFrames(WebSocketBase socket, ConnectionBase connection) {
            this.socket = socket;
            this.connection = connection;
        }

        @Override
        public Future<Void> write(SharedTextFrame frame) {
            Promise<Void> written = Promise.promise();
            // Vert.x takes this lock around its own frame writes: checked and written at once, a frame never follows
            // the close frame.
            synchronized (connection) {
                if (socket.isClosed()) {
                    return Future.failedFuture(new ClosedChannelException());
                }
                connection.writeToChannel(frame.wholeMessage(), (io.netty.util.concurrent.Future<Void> done) -> {
                    if (done.isSuccess()) {
                        written.complete();
                    } else {
                        written.fail(done.cause());
                    }
                });
            }
            return written.future();
        }
    }

    /** The payload in Vert.x frames, fragmented beyond one frame, framed by the socket's encoder. */
    public static final class VertxFrames extends SharedFrameWriter {

        private final WebSocketBase socket;

        private VertxFrames(WebSocketBase socket) {
            this.socket = socket;
        }

        @Override
        public Future<Void> write(SharedTextFrame frame) {
            return frame.writeTo(socket);
        }
    }
}
