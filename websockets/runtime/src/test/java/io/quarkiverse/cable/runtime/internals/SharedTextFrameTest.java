package io.quarkiverse.cable.runtime.internals;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;

/**
 * The pre-encoded message is byte for byte what Netty's server-side encoder writes for the same text, in the fragments
 * Vert.x's {@code writeTextMessage} would make.
 */
class SharedTextFrameTest {

    @Test
    void wholeFrameMatchesNettysEncoderAtEveryLengthForm() {
        // 7-bit lengths, the 16-bit form from 126, the 64-bit form from 65,536 (the largest single frame).
        for (int length : new int[] { 0, 1, 19, 125, 126, 127, 1023, 1024, 65_535, 65_536 }) {
            String text = "x".repeat(length);
            SharedTextFrame frame = SharedTextFrame.of(text);
            assertThat(frame.fitsOneFrame()).isTrue();
            assertThat(bytes(frame.wholeMessage())).as("%d bytes", length).isEqualTo(encodedByNetty(text));
            // What an outbox counts for it while it waits: the whole encoded frame, header included.
            assertThat(frame.encodedSize()).isEqualTo(encodedByNetty(text).length);
            assertThat(frame.payloadFragments()).hasSize(1);
            assertThat(bytes(frame.payloadFragments()[0])).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void multibyteTextIsFramedByItsBytes() {
        String text = "é€𝄞".repeat(40); // 9 bytes per repetition: a 16-bit length form from 40 characters
        SharedTextFrame frame = SharedTextFrame.of(text);
        assertThat(frame.length()).isEqualTo(360);
        assertThat(bytes(frame.wholeMessage())).isEqualTo(encodedByNetty(text));
        assertThat(frame).hasToString(text);
    }

    @Test
    void longerThanOneFrameIsEncodedInFragmentsOf64KiB() {
        // 150,000 bytes: a text frame of 65,536 (not final), a continuation of 65,536, a final one of 18,928; the
        // second fragment boundary falls inside a three-byte character.
        String text = "y".repeat(65_538) + "€".repeat(28_154);
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        assertThat(utf8.length).isEqualTo(150_000);
        SharedTextFrame frame = SharedTextFrame.of(text);
        assertThat(frame.fitsOneFrame()).isFalse();
        assertThat(frame.length()).isEqualTo(150_000);
        ByteBuf[] fragments = frame.payloadFragments();
        assertThat(fragments).hasSize(3);
        assertThat(bytes(fragments[0])).isEqualTo(Arrays.copyOfRange(utf8, 0, 65_536));
        assertThat(bytes(fragments[1])).isEqualTo(Arrays.copyOfRange(utf8, 65_536, 131_072));
        assertThat(bytes(fragments[2])).isEqualTo(Arrays.copyOfRange(utf8, 131_072, 150_000));
        EmbeddedChannel channel = new EmbeddedChannel(new WebSocket13FrameEncoder(false));
        channel.writeOutbound(new TextWebSocketFrame(false, 0, Unpooled.wrappedBuffer(utf8, 0, 65_536)),
                new ContinuationWebSocketFrame(false, 0, Unpooled.wrappedBuffer(utf8, 65_536, 65_536)),
                new ContinuationWebSocketFrame(true, 0, Unpooled.wrappedBuffer(utf8, 131_072, 18_928)));
        assertThat(bytes(frame.wholeMessage())).isEqualTo(outbound(channel));
    }

    @Test
    void buffersAreDirectViewsThatSurviveReleases() {
        SharedTextFrame frame = SharedTextFrame.of("{\"hello\":1}");
        ByteBuf first = frame.wholeMessage();
        assertThat(first.isDirect()).as("sockets copy heap buffers into direct memory per write").isTrue();
        assertThat(frame.payloadFragments()[0].isDirect()).isTrue();
        // Netty releases each buffer it wrote; the shared memory must outlive every write.
        first.release();
        frame.payloadFragments()[0].release();
        assertThat(bytes(frame.wholeMessage())).isEqualTo(encodedByNetty("{\"hello\":1}"));
        // Views have their own indices: reading one leaves the next intact.
        ByteBuf view = frame.payloadFragments()[0];
        view.skipBytes(view.readableBytes());
        assertThat(frame.payloadFragments()[0].readableBytes()).isEqualTo(11);
    }

    private static byte[] encodedByNetty(String text) {
        EmbeddedChannel channel = new EmbeddedChannel(new WebSocket13FrameEncoder(false));
        channel.writeOutbound(new TextWebSocketFrame(text));
        return outbound(channel);
    }

    private static byte[] outbound(EmbeddedChannel channel) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuf part; (part = channel.readOutbound()) != null;) {
            out.writeBytes(ByteBufUtil.getBytes(part));
            part.release();
        }
        channel.finishAndReleaseAll();
        return out.toByteArray();
    }

    private static byte[] bytes(ByteBuf buffer) {
        return ByteBufUtil.getBytes(buffer);
    }
}
