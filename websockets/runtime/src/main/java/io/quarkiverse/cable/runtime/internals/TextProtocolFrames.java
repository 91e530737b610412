package io.quarkiverse.cable.runtime.internals;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionDecoder;
import io.netty.util.ReferenceCountUtil;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.core.net.impl.VertxHandler;

/**
 * Checks the frames a client sends to a text protocol (Action Cable), in the connection's Netty pipeline between the
 * frame decoder and Vert.x, before Vert.x assembles a message of them:
 * <ul>
 * <li>a binary frame closes the connection with 1003 (unsupported data): Vert.x would assemble each, up to the
 * server's message size, and hand it to a callback that can only drop it, with no bound on how many;</li>
 * <li>a message whose fragments add up to more than {@code maxMessageBytes} closes it with 1009 (message too big) at
 * the fragment that passes the bound: past the server's message size Vert.x drops such a message without a word;</li>
 * <li>a single frame over the server's frame size (the decoder's failure, read from its header) closes it with 1009
 * too, and any other protocol violation the decoder finds with its RFC 6455 code;</li>
 * <li>a text message that is not UTF-8 closes it with 1007 (invalid payload data), a frame with a reserved bit set that
 * no negotiated extension took (RSV1 without permessage-deflate) with 1002 (protocol error): Vert.x accepts both.</li>
 * </ul>
 * A refused connection's close frame is sent at once; what the client goes on sending is read and dropped for
 * {@link #DRAIN_MILLIS} (or until its close frame), then the channel is closed, as HTTP servers' lingering close
 * does: a socket closed with unread input is reset, and the client's TCP stack may drop what it had not read yet, the
 * close frame included. Frames the server still writes
 * to it meanwhile are dropped: nothing may follow a close frame. Runs on the channel's event loop, one frame at a time:
 * no lock.
 */
public final class TextProtocolFrames extends ChannelDuplexHandler {

    /** RFC 6455 close codes. */
    public static final int PROTOCOL_ERROR = 1002;
    public static final int UNSUPPORTED_DATA = 1003;
    public static final int INVALID_PAYLOAD = 1007;
    public static final int MESSAGE_TOO_BIG = 1009;
    /** How long a refused connection's further input is read and dropped before its channel is closed. */
    static final long DRAIN_MILLIS = 2000;
    private static final String HANDLER_NAME = "cable-text-frames";

    /** What the front end does with a refusal (count it, stop the connection's streams); runs once, on the loop. */
    public interface Refusal {
        /** {@code code} is the close code sent, {@code why} says what the client did. */
        void refused(int code, String why);
    }

    private final long maxMessageBytes;
    private final boolean checkPayloads;
    private final Refusal refusal;
    private final Utf8Stream utf8 = new Utf8Stream();
    /** Bytes of the text message being received, or -1 between messages. */
    private long messageBytes = -1;
    private boolean refused;
    private ChannelHandlerContext context;

    /**
     * Checks {@code connection}'s frames from now on, in the Netty pipeline of the HTTP connection the socket was
     * upgraded from ({@link UpgradedConnections}), as {@link ControlFrameFlood} does; a connection of another kind is left
     * alone.
     */
    public static void guard(WebSocketConnection connection, long maxMessageBytes, Refusal refusal) {
        HttpConnection upgraded = connection.userData().get(UpgradedConnections.KEY);
        if (!(upgraded instanceof ConnectionBase base)) {
            return;
        }
        ChannelPipeline pipeline = base.channel().pipeline();
        String vertx = null;
        boolean extensionAfter = false;
        for (Map.Entry<String, ChannelHandler> handler : pipeline) {
            if (handler.getValue() instanceof VertxHandler) {
                vertx = handler.getKey();
            } else if (handler.getValue() instanceof WebSocketExtensionDecoder && vertx != null) {
                extensionAfter = true;
            }
        }
        if (vertx == null || pipeline.get(HANDLER_NAME) != null) {
            return; // not a pipeline Vert.x set up as expected (or the channel is gone): left alone
        }
        // A negotiated extension (permessage-deflate) decodes before this handler: the reserved bit it uses is
        // cleared and the payload inflated by then. One that decoded after it would leave compressed bytes here, which
        // are neither UTF-8 nor the message's size: then only binary frames and sizes of whole frames are checked.
        pipeline.addBefore(vertx, HANDLER_NAME,
                new TextProtocolFrames(maxMessageBytes, !extensionAfter, refusal));
    }

    private TextProtocolFrames(long maxMessageBytes, boolean checkPayloads, Refusal refusal) {
        this.maxMessageBytes = maxMessageBytes;
        this.checkPayloads = checkPayloads;
        this.refusal = refusal;
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
        if (refused) {
            boolean closing = message instanceof CloseWebSocketFrame;
            ReferenceCountUtil.release(message);
            if (closing) {
                context.channel().close(); // the client answered the close: nothing more to wait for
            }
            return;
        }
        if (message instanceof WebSocketFrame frame && !admitted(frame)) {
            ReferenceCountUtil.release(message);
            return;
        }
        context.fireChannelRead(message);
    }

    /** Whether {@code frame} may go on to Vert.x; if not, it was refused and the connection is closing. */
    private boolean admitted(WebSocketFrame frame) {
        if (frame instanceof BinaryWebSocketFrame) {
            return refuse(UNSUPPORTED_DATA, "cable: binary frames unsupported",
                    "sent a binary frame; Action Cable is a text protocol");
        }
        if (checkPayloads && frame.rsv() != 0) {
            return refuse(PROTOCOL_ERROR, "cable: reserved bits set",
                    "sent a frame with reserved bits " + frame.rsv() + " that no negotiated extension uses");
        }
        boolean first = frame instanceof TextWebSocketFrame;
        if (!first && !(frame instanceof ContinuationWebSocketFrame && messageBytes >= 0)) {
            return true; // a control frame (or a continuation the decoder will refuse itself)
        }
        if (first) {
            messageBytes = 0;
            utf8.reset();
        }
        messageBytes += frame.content().readableBytes();
        if (messageBytes > maxMessageBytes) {
            return refuse(MESSAGE_TOO_BIG, "command too large", "sent a message of more than " + maxMessageBytes
                    + " bytes (quarkus.cable.action-cable.max-command-size) in fragments");
        }
        if (checkPayloads && (!utf8.feed(frame.content()) || frame.isFinalFragment() && !utf8.complete())) {
            return refuse(INVALID_PAYLOAD, "cable: text is not UTF-8", "sent a text message that is not UTF-8");
        }
        if (frame.isFinalFragment()) {
            messageBytes = -1;
        }
        return true;
    }

    /**
     * The frame decoder's failure: a frame over the server's frame size (refused from its header, 1009), or another
     * violation of RFC 6455 with the code the decoder chose. Answered here, not left to Vert.x, which would end the
     * connection without its close frame.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable failure) {
        if (failure instanceof CorruptedWebSocketFrameException corrupted && !refused) {
            int code = corrupted.closeStatus().code();
            boolean tooBig = code == MESSAGE_TOO_BIG;
            refuse(code, tooBig ? "command too large" : "cable: protocol error",
                    tooBig ? "sent a frame over the server's WebSocket frame size"
                            : "violated RFC 6455 ("
                                    + corrupted.getMessage() + ")");
            return;
        }
        if (refused) {
            return; // what the rest of a refused connection's input made the decoder say: nothing to add
        }
        context.fireExceptionCaught(failure);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.context = context;
    }

    /** Closes the connection with {@code code}; always false (the frame at hand is not admitted). */
    private boolean refuse(int code, String reason, String why) {
        refused = true;
        refusal.refused(code, why);
        ChannelHandlerContext here = context;
        here.writeAndFlush(new CloseWebSocketFrame(code, reason)).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        here.executor().schedule(() -> here.channel().close(), DRAIN_MILLIS, TimeUnit.MILLISECONDS);
        return false;
    }

    /** Nothing may follow the close frame: what the server still writes to a refused connection is dropped. */
    @Override
    public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) {
        if (refused) {
            ReferenceCountUtil.release(message);
            promise.trySuccess(); // dropped on purpose: the client was told it is closed
            return;
        }
        context.write(message, promise);
    }
}
