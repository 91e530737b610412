package io.quarkiverse.cable.runtime.websocket;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.Future;
import io.vertx.core.http.WebSocketBase;
import io.vertx.core.http.WebSocketFrame;
import io.vertx.core.http.WebSocketFrameType;
import io.vertx.core.http.impl.ws.WebSocketFrameImpl;

/**
 * A text frame turned into UTF-8 bytes once and written to every connection that receives it from those same bytes.
 * {@code ServerWebSocket.writeTextMessage(String)} converts the text for each connection, so a broadcast to N
 * subscribers would pay N conversions and N copies of the payload; here each connection gets a view of one buffer,
 * and per connection only the frame header is new (Netty's encoder merges payloads under 1 KiB into the header's
 * buffer, a small copy, and writes larger ones as they are).
 * <p>
 * The buffer is unpooled heap memory wrapped as unreleasable: Netty releases every frame it has written, and a shared
 * buffer must survive all of them; the garbage collector frees it with the last view. Unpooled also keeps Vert.x from
 * copying it (it copies only pooled and composite buffers into its own before writing).
 */
public final class SharedTextFrame {

    /**
     * The largest fragment written, as Vert.x splits long text messages: its default maximum frame size, which is also
     * what a Vert.x client accepts by default.
     */
    static final int MAX_FRAGMENT = 65_536;

    private final String text;
    private final ByteBuf utf8;

    private SharedTextFrame(String text, ByteBuf utf8) {
        this.text = text;
        this.utf8 = utf8;
    }

    public static SharedTextFrame of(String text) {
        return new SharedTextFrame(text,
                Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.UTF_8))));
    }

    public int length() {
        return utf8.readableBytes();
    }

    /**
     * Whether the frame goes out as one WebSocket frame. One frame is one write, which cannot interleave with another
     * message written to the same socket at the same time; fragments could.
     */
    public boolean fitsOneFrame() {
        return length() <= MAX_FRAGMENT;
    }

    /** The bytes for one write: a view with its own indices over the shared memory, never a copy. */
    public ByteBuf view() {
        return utf8.duplicate();
    }

    /**
     * Writes the frame, in fragments of at most {@link #MAX_FRAGMENT} bytes like {@code writeTextMessage}; completes
     * when the last fragment is written. The caller keeps its writes to one socket in order (fragments of two
     * messages must not interleave).
     */
    public Future<Void> writeTo(WebSocketBase socket) {
        int length = length();
        if (fitsOneFrame()) {
            return socket.writeFrame(textFrame(view(), true));
        }
        Future<Void> last = null;
        for (int offset = 0; offset < length; offset += MAX_FRAGMENT) {
            int size = Math.min(MAX_FRAGMENT, length - offset);
            boolean fin = offset + size == length;
            ByteBuf fragment = utf8.slice(utf8.readerIndex() + offset, size);
            last = socket.writeFrame(offset == 0 ? textFrame(fragment, fin) : continuation(fragment, fin));
        }
        return last;
    }

    /** The text the frame was made of (kept, not decoded again): for {@code sendText} and logs. */
    @Override
    public String toString() {
        return text;
    }

    // Vert.x 4 has no public factory for a text frame over a buffer (WebSocketFrame.textFrame takes a String and
    // encodes it again); its implementation class is public and plain Java, so this stays native-safe.
    private static WebSocketFrame textFrame(ByteBuf payload, boolean fin) {
        return new WebSocketFrameImpl(WebSocketFrameType.TEXT, payload, fin);
    }

    private static WebSocketFrame continuation(ByteBuf payload, boolean fin) {
        return new WebSocketFrameImpl(WebSocketFrameType.CONTINUATION, payload, fin);
    }
}
