package io.quarkiverse.cable.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.runtime.core.EncodedFrames;
import io.quarkiverse.cable.runtime.internals.SharedTextFrame;

/**
 * The Action Cable fan-out through a real transport: 10 broadcasts to 100 subscribers, each subscriber a Netty
 * channel with the server-side WebSocket frame encoder (RFC 6455, unmasked, as Vert.x writes), in the shape of the
 * Rails "fastlane broadcasts" benchmark (19 B JSON, 80.5 KB JSON, 2.95 KB Turbo Stream).
 * <ul>
 * <li>{@code perSubscriber}: the frame is built and turned into UTF-8 for every subscriber (a per-subscriber callback
 * or coder, Rails without fastlane);</li>
 * <li>{@code onceAsText}: built once, but every connection converts the shared String to UTF-8 again
 * ({@code writeTextMessage(String)}, the cable before SharedTextFrame);</li>
 * <li>{@code oncePayload}: the runtime's {@link EncodedFrames} and {@link SharedTextFrame}: built and converted once,
 * each connection writes views of the same payload in frames of its own (fragments over 64 KiB), which the encoder
 * frames (the cable's path on a connection that negotiated compression, see {@code SharedFrameWriter});</li>
 * <li>{@code onceWhole}: the cable's path on every other connection: the message is built, converted and framed once,
 * and each connection writes the same whole message (headers and payload) as it is, past the encoder;</li>
 * <li>{@code bufferWrite}: the floor, the already encoded bytes written to each channel as a plain buffer, no
 * WebSocket frame at all: the cost of one buffer write per subscriber.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FanoutTransport {

    @Param({ "json-19B", "json-80.5KB", "turbo-2.95KB" })
    public String payload;

    private CableMessage[] messages;
    private EmbeddedChannel[] subscribers;

    @Setup
    public void setUp() {
        byte[] bytes = Payloads.of(payload).getBytes(StandardCharsets.UTF_8);
        messages = new CableMessage[BroadcastEncoding.BROADCASTS];
        for (int i = 0; i < messages.length; i++) {
            messages[i] = new CableMessage(i + 1, "chat:lobby", bytes, false);
        }
        subscribers = new EmbeddedChannel[BroadcastEncoding.SUBSCRIBERS];
        for (int i = 0; i < subscribers.length; i++) {
            subscribers[i] = new EmbeddedChannel(new WebSocket13FrameEncoder(false));
        }
    }

    @TearDown
    public void tearDown() {
        for (EmbeddedChannel subscriber : subscribers) {
            subscriber.finishAndReleaseAll();
        }
    }

    @Benchmark
    public void perSubscriber() {
        for (CableMessage message : messages) {
            for (EmbeddedChannel subscriber : subscribers) {
                subscriber.writeOutbound(new TextWebSocketFrame(BroadcastEncoding.envelope(message)));
            }
            drain();
        }
    }

    @Benchmark
    public void onceAsText() {
        for (CableMessage message : messages) {
            String frame = BroadcastEncoding.envelope(message);
            for (EmbeddedChannel subscriber : subscribers) {
                subscriber.writeOutbound(new TextWebSocketFrame(frame));
            }
            drain();
        }
    }

    @Benchmark
    public void oncePayload() {
        EncodedFrames frames = new EncodedFrames(message -> SharedTextFrame.of(BroadcastEncoding.envelope(message)));
        for (CableMessage message : messages) {
            for (EmbeddedChannel subscriber : subscribers) {
                ByteBuf[] fragments = ((SharedTextFrame) frames.frameFor(message)).payloadFragments();
                for (int i = 0; i < fragments.length; i++) {
                    boolean fin = i == fragments.length - 1;
                    subscriber.writeOutbound(i == 0 ? new TextWebSocketFrame(fin, 0, fragments[i])
                            : new ContinuationWebSocketFrame(fin, 0, fragments[i]));
                }
            }
            drain();
        }
    }

    @Benchmark
    public void onceWhole() {
        EncodedFrames frames = new EncodedFrames(message -> SharedTextFrame.of(BroadcastEncoding.envelope(message)));
        for (CableMessage message : messages) {
            for (EmbeddedChannel subscriber : subscribers) {
                SharedTextFrame frame = (SharedTextFrame) frames.frameFor(message);
                subscriber.writeOutbound(frame.wholeMessage());
            }
            drain();
        }
    }

    @Benchmark
    public void bufferWrite() {
        for (CableMessage message : messages) {
            byte[] utf8 = BroadcastEncoding.envelope(message).getBytes(StandardCharsets.UTF_8);
            // Direct, as the cable's buffers are, and freed by the garbage collector as theirs are.
            ByteBuf payload = Unpooled.unreleasableBuffer(
                    Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(utf8.length).put(utf8).flip()));
            for (EmbeddedChannel subscriber : subscribers) {
                subscriber.writeOutbound(payload.duplicate());
            }
            drain();
        }
    }

    /** What the socket would send is dropped: the same cost in every variant. */
    private void drain() {
        for (EmbeddedChannel subscriber : subscribers) {
            subscriber.releaseOutbound();
        }
    }
}
