package io.quarkiverse.cable.runtime.internals;

import java.util.Map;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.core.net.impl.VertxHandler;

/**
 * Counts the ping frames of one WebSocket connection, in its Netty pipeline between the frame decoder and Vert.x.
 * Vert.x answers every ping it is handed with a pong, queued on the socket whether or not the client reads: a client
 * that pings as fast as it can and never reads would make the server hold a pong (and Netty's bookkeeping for it)
 * per ping, outside every bound of the cable's own output. Here a ping past the bound never reaches Vert.x: at most
 * {@code maxPerSecond} in one second, and at most {@code maxPerSecond} while the socket stays unwritable (a client
 * that asks for pongs and does not read them). The first ping past either closes the connection: a 1008 close frame
 * (sent if the socket takes it) and the channel closed at once, which drops the pongs already queued; Vert.x's own
 * close would wait for them to be flushed, which for a client that does not read is never.
 * <p>
 * In the pipeline rather than a Vert.x frame handler: a frame handler sees a ping only after Vert.x queued its pong,
 * and WebSockets Next installs its own (for {@code @OnPingMessage}) while it sets a connection up, so pings read
 * before then would pass uncounted. Runs on the channel's event loop, one frame at a time: no lock.
 */
public final class PingFlood extends ChannelInboundHandlerAdapter {

    /** The close reason of a connection that pinged past the bound (code 1008). */
    public static final String REASON = "cable: too many pings";
    static final int POLICY_VIOLATION = 1008;
    private static final String HANDLER_NAME = "cable-ping-limit";
    private static final long SECOND_NANOS = 1_000_000_000L;

    private final int maxPerSecond;
    private final Runnable flooded;
    private long windowStartNanos = System.nanoTime();
    private int inWindow;
    private int whileBackedUp;
    private boolean tripped;

    /**
     * Counts {@code connection}'s pings from now on, in the Netty pipeline of the HTTP connection the socket was
     * upgraded from ({@link UpgradedConnections}); its class, {@code ConnectionBase}, is Vert.x internal, as for
     * {@link SharedFrameWriter}: a connection of another kind is left alone. {@code flooded} runs once, on the
     * event loop, when the connection is closed for its pings.
     */
    public static void guard(WebSocketConnection connection, int maxPerSecond, Runnable flooded) {
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
        pipeline.addBefore(vertx, HANDLER_NAME, new PingFlood(maxPerSecond, flooded));
    }

    private PingFlood(int maxPerSecond, Runnable flooded) {
        this.maxPerSecond = maxPerSecond;
        this.flooded = flooded;
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
        if (!(message instanceof PingWebSocketFrame)) {
            context.fireChannelRead(message);
            return;
        }
        if (tripped) {
            ReferenceCountUtil.release(message); // the rest of a flood already read: no pong for it
            return;
        }
        long now = System.nanoTime();
        if (now - windowStartNanos >= SECOND_NANOS) {
            windowStartNanos = now;
            inWindow = 0;
        }
        inWindow++;
        // An unwritable socket is normal for a moment (a burst of broadcasts to a healthy reader); pings that keep
        // arriving while it stays so are a client that does not read its pongs.
        whileBackedUp = context.channel().isWritable() ? 0 : whileBackedUp + 1;
        if (inWindow <= maxPerSecond && whileBackedUp <= maxPerSecond) {
            context.fireChannelRead(message);
            return;
        }
        ReferenceCountUtil.release(message);
        tripped = true;
        flooded.run();
        context.writeAndFlush(new CloseWebSocketFrame(POLICY_VIOLATION, REASON));
        context.channel().close();
    }
}
