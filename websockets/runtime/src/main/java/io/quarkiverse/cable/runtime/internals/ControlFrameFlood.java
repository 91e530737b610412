package io.quarkiverse.cable.runtime.internals;

import java.util.Map;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.core.net.impl.VertxHandler;

/**
 * Counts the ping and pong frames of one WebSocket connection, in its Netty pipeline between the frame decoder and
 * Vert.x.
 * <p>
 * Pings: Vert.x answers every ping it is handed with a pong, queued on the socket whether or not the client reads: a
 * client that pings as fast as it can and never reads would make the server hold a pong (and Netty's bookkeeping for
 * it) per ping, outside every bound of the cable's own output. A ping past the bound never reaches Vert.x: at most
 * {@code maxPings} in one second, and at most {@code maxPings} while the socket stays unwritable (a client that asks
 * for pongs and does not read them).
 * <p>
 * Pongs: one makes the server write nothing, but Vert.x and WebSockets Next dispatch each (the cable's pong deadline,
 * an endpoint's {@code @OnPongMessage}) on the event loop the connection shares with others: at most {@code maxPongs}
 * in one second. Counted in a window of their own, since a client answering the server's pings owes it pongs whatever
 * it pings itself.
 * <p>
 * The first frame past a bound closes the connection: a 1008 close frame (sent if the socket takes it) and the channel
 * closed at once, which drops what is already queued; Vert.x's own close would wait for that to be flushed, which for
 * a client that does not read is never.
 * <p>
 * In the pipeline rather than a Vert.x frame handler: a frame handler sees a ping only after Vert.x queued its pong,
 * and WebSockets Next installs its own (for {@code @OnPingMessage}) while it sets a connection up, so frames read
 * before then would pass uncounted. Runs on the channel's event loop, one frame at a time: no lock.
 */
public final class ControlFrameFlood extends ChannelInboundHandlerAdapter {

    /** The close reason of a connection that pinged past the bound (code 1008). */
    public static final String PINGS_REASON = "cable: too many pings";
    /** The close reason of a connection that sent pongs past the bound (code 1008). */
    public static final String PONGS_REASON = "cable: too many pongs";
    static final int POLICY_VIOLATION = 1008;
    private static final String HANDLER_NAME = "cable-control-frame-limit";
    private static final long SECOND_NANOS = 1_000_000_000L;

    private final int maxPings;
    private final Runnable pingsFlooded;
    private final Runnable pongsFlooded;
    private final Window pings;
    private final Window pongs;
    private int pingsWhileBackedUp;
    private boolean tripped;

    /**
     * Counts {@code connection}'s pings and pongs from now on, in the Netty pipeline of the HTTP connection the socket
     * was upgraded from ({@link UpgradedConnections}); its class, {@code ConnectionBase}, is Vert.x internal, as for
     * {@link SharedFrameWriter}: a connection of another kind is left alone. {@code pingsFlooded} or
     * {@code pongsFlooded} runs once, on the event loop, when the connection is closed for its pings or its pongs.
     */
    public static void guard(WebSocketConnection connection, int maxPings, int maxPongs, Runnable pingsFlooded,
            Runnable pongsFlooded) {
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
        pipeline.addBefore(vertx, HANDLER_NAME, new ControlFrameFlood(maxPings, maxPongs, pingsFlooded, pongsFlooded));
    }

    private ControlFrameFlood(int maxPings, int maxPongs, Runnable pingsFlooded, Runnable pongsFlooded) {
        this.maxPings = maxPings;
        this.pingsFlooded = pingsFlooded;
        this.pongsFlooded = pongsFlooded;
        this.pings = new Window(maxPings);
        this.pongs = new Window(maxPongs);
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
        boolean ping = message instanceof PingWebSocketFrame;
        if (!ping && !(message instanceof PongWebSocketFrame)) {
            context.fireChannelRead(message);
            return;
        }
        if (tripped) {
            ReferenceCountUtil.release(message); // the rest of a flood already read: nothing more of it
            return;
        }
        long now = System.nanoTime();
        boolean within;
        if (ping) {
            // An unwritable socket is normal for a moment (a burst of broadcasts to a healthy reader); pings that keep
            // arriving while it stays so are a client that does not read its pongs.
            pingsWhileBackedUp = context.channel().isWritable() ? 0 : pingsWhileBackedUp + 1;
            within = pings.admit(now) && pingsWhileBackedUp <= maxPings;
        } else {
            within = pongs.admit(now);
        }
        if (within) {
            context.fireChannelRead(message);
            return;
        }
        ReferenceCountUtil.release(message);
        tripped = true;
        (ping ? pingsFlooded : pongsFlooded).run();
        context.writeAndFlush(new CloseWebSocketFrame(POLICY_VIOLATION, ping ? PINGS_REASON : PONGS_REASON));
        context.channel().close();
    }

    /** Frames of one kind in the current one-second window. */
    private static final class Window {
        private final int max;
        private long startNanos = System.nanoTime();
        private int count;

        Window(int max) {
            this.max = max;
        }

        boolean admit(long now) {
            if (now - startNanos >= SECOND_NANOS) {
                startNanos = now;
                count = 0;
            }
            return ++count <= max;
        }
    }
}
