package io.quarkiverse.cable.runtime.internals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.quarkiverse.cable.CableMessage;
import io.vertx.core.Future;
import io.vertx.core.http.WebSocketBase;
import io.vertx.core.http.WebSocketFrameType;
import io.vertx.core.http.impl.ws.WebSocketFrameImpl;

/**
 * A text message encoded once and written to every connection that receives it from the same memory.
 * {@code ServerWebSocket.writeTextMessage(String)} converts the text for each connection, so a broadcast to N
 * subscribers would pay N conversions and N copies of the payload; here the message is built once, whole: the UTF-8
 * payload in the frames a server sends (unmasked, the same for every connection), each with its header, split into
 * fragments of at most {@link #MAX_FRAGMENT} bytes as {@code writeTextMessage} splits it. A connection that frames as
 * RFC 6455 says and nothing more writes that buffer as it is, one buffer write ({@link SharedFrameWriter}); any other
 * writes the payload fragments, each in a Vert.x frame of its own.
 * <p>
 * The memory is direct: the socket transports copy every heap buffer into direct memory before writing it, which would
 * be one copy per connection again. It is a JDK direct buffer freed by the garbage collector with the last view of it,
 * wrapped as unreleasable: Netty releases every buffer it has written, and a shared one must survive all of them, so
 * nothing here has a reference count to get wrong. (Unpooled also keeps Vert.x from copying it: it copies only pooled
 * and composite buffers into its own before writing.)
 */
public final class SharedTextFrame {

    /**
     * The largest fragment written, as Vert.x splits long text messages: its default maximum frame size, which is also
     * what a Vert.x client accepts by default.
     */
    public static final int MAX_FRAGMENT = 65_536;

    /**
     * The frame of a broadcast on a {@code @StreamFrom} stream with shared frames, made once per node: a binary
     * payload as it is; a text as a shared frame, unless it is longer than one frame in characters (so in bytes too),
     * when it stays a String and goes through {@code sendText}.
     */
    public static final Function<CableMessage, Object> STREAM_FRAMES = message -> {
        if (message.binary()) {
            return message.payload();
        }
        String text = message.text();
        return text.length() > MAX_FRAGMENT ? text : of(text);
    };

    private static final byte FIN = (byte) 0x80;
    private static final byte TEXT = 0x1;
    private static final byte CONTINUATION = 0x0;

    private final String text;
    private final int length;
    /** Every frame of the message, header and payload. */
    private final ByteBuf wholeMessage;
    /** The payload of each frame, views into {@link #wholeMessage}. */
    private final ByteBuf[] fragments;

    private SharedTextFrame(String text, int length, ByteBuf wholeMessage, ByteBuf[] fragments) {
        this.text = text;
        this.length = length;
        this.wholeMessage = wholeMessage;
        this.fragments = fragments;
    }

    public static SharedTextFrame of(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        int count = Math.max(1, (utf8.length + MAX_FRAGMENT - 1) / MAX_FRAGMENT);
        int size = utf8.length;
        for (int i = 0; i < count; i++) {
            size += headerLength(fragmentLength(utf8.length, i));
        }
        ByteBuffer memory = ByteBuffer.allocateDirect(size);
        int[] payloadStarts = new int[count];
        for (int i = 0; i < count; i++) {
            int fragment = fragmentLength(utf8.length, i);
            putHeader(memory, (byte) ((i == count - 1 ? FIN : 0) | (i == 0 ? TEXT : CONTINUATION)), fragment);
            payloadStarts[i] = memory.position();
            memory.put(utf8, i * MAX_FRAGMENT, fragment);
        }
        memory.flip();
        ByteBuf whole = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(memory));
        ByteBuf[] fragments = new ByteBuf[count];
        for (int i = 0; i < count; i++) {
            fragments[i] = whole.slice(payloadStarts[i], fragmentLength(utf8.length, i));
        }
        return new SharedTextFrame(text, utf8.length, whole, fragments);
    }

    private static int fragmentLength(int payloadLength, int index) {
        return Math.min(MAX_FRAGMENT, payloadLength - index * MAX_FRAGMENT);
    }

    /** RFC 6455 5.2: the payload length in 7 bits, or 126 and 16 bits, or 127 and 64 bits; no masking key. */
    static int headerLength(int payloadLength) {
        return payloadLength < 126 ? 2 : payloadLength <= 0xFFFF ? 4 : 10;
    }

    private static void putHeader(ByteBuffer memory, byte finAndOpcode, int payloadLength) {
        memory.put(finAndOpcode);
        if (payloadLength < 126) {
            memory.put((byte) payloadLength);
        } else if (payloadLength <= 0xFFFF) {
            memory.put((byte) 126).putShort((short) payloadLength);
        } else {
            memory.put((byte) 127).putLong(payloadLength);
        }
    }

    /** The bytes written for the whole message: every frame's header and payload. */
    public int encodedSize() {
        return wholeMessage.readableBytes();
    }

    /** The payload's length in bytes. */
    public int length() {
        return length;
    }

    /**
     * Whether the message goes out as one WebSocket frame. Written in Vert.x frames, one frame is one write, which
     * cannot interleave with another message written to the same socket at the same time; fragments could.
     */
    public boolean fitsOneFrame() {
        return fragments.length == 1;
    }

    /** Every frame of the message, headers and payload, ready for the socket, for one write. */
    public ByteBuf wholeMessage() {
        return wholeMessage.duplicate();
    }

    /**
     * The payload of each frame, in order, for one write each: views with their own indices over the shared memory,
     * never copies.
     */
    public ByteBuf[] payloadFragments() {
        ByteBuf[] views = new ByteBuf[fragments.length];
        for (int i = 0; i < views.length; i++) {
            views[i] = fragments[i].duplicate();
        }
        return views;
    }

    /**
     * Writes the payload in Vert.x frames, fragmented like {@code writeTextMessage}; completes when the last fragment
     * is written. The socket's encoder adds each header (and compresses, when the connection negotiated it). The
     * caller keeps its writes to one socket in order (fragments of two messages must not interleave).
     */
    public Future<Void> writeTo(WebSocketBase socket) {
        Future<Void> last = null;
        for (int i = 0; i < fragments.length; i++) {
            WebSocketFrameType type = i == 0 ? WebSocketFrameType.TEXT : WebSocketFrameType.CONTINUATION;
            // Vert.x 4 has no public factory for a text frame over a buffer (WebSocketFrame.textFrame takes a String
            // and encodes it again); its implementation class is public and plain Java, so this stays native-safe.
            last = socket.writeFrame(new WebSocketFrameImpl(type, fragments[i].duplicate(), i == fragments.length - 1));
        }
        return last;
    }

    /** The text the frame was made of (kept, not decoded again): for {@code sendText} and logs. */
    @Override
    public String toString() {
        return text;
    }
}
