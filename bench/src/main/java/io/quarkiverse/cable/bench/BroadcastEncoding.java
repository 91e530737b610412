package io.quarkiverse.cable.bench;

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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.runtime.core.EncodedFrames;

/**
 * Encode-once fan-out, in the shape of the Rails "fastlane broadcasts" benchmark: N = 10 broadcasts delivered to
 * M = 100 subscribers, with a 19 B JSON payload, an 80.5 KB JSON payload and a 2.95 KB Turbo Stream fragment.
 * <p>
 * {@code encodeOnce} is the cable's fast path: the runtime's {@link EncodedFrames} builds each broadcast's frame once
 * and every subscriber gets the same instance. {@code encodePerSubscriber} builds the frame again for every subscriber,
 * as a per-subscriber callback or a naive broadcaster does. Both pay what the transport does per connection anyway
 * (turning the frame into UTF-8 bytes, as Vert.x does for each text frame), so the ratio is what a real fan-out saves.
 * The {@code actioncable} shape wraps the payload in the Action Cable envelope
 * {@code {"identifier":...,"message":...}}, built once per broadcast and identifier or once per subscriber.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BroadcastEncoding {

    static final int BROADCASTS = 10;
    static final int SUBSCRIBERS = 100;
    static final String IDENTIFIER = "{\"channel\":\"ChatChannel\",\"room\":\"lobby\"}";

    @Param({ "json-19B", "json-80.5KB", "turbo-2.95KB" })
    public String payload;

    @Param({ "raw", "actioncable" })
    public String shape;

    /** {@code utf8}: each frame is turned into bytes per subscriber, as the transport does; {@code none}: not. */
    @Param({ "utf8", "none" })
    public String transport;

    private CableMessage[] messages;

    @Setup
    public void setUp() {
        byte[] bytes = Payloads.of(payload).getBytes(StandardCharsets.UTF_8);
        messages = new CableMessage[BROADCASTS];
        for (int i = 0; i < BROADCASTS; i++) {
            messages[i] = new CableMessage(i + 1, "chat:lobby", bytes, false);
        }
    }

    @Benchmark
    public void encodeOnce(Blackhole sink) {
        EncodedFrames frames = new EncodedFrames();
        boolean envelope = shape.equals("actioncable");
        for (CableMessage message : messages) {
            String shared = envelope ? envelope(message) : null;
            for (int subscriber = 0; subscriber < SUBSCRIBERS; subscriber++) {
                String frame = envelope ? shared : (String) frames.frameFor(message);
                send(frame, sink);
            }
        }
    }

    @Benchmark
    public void encodePerSubscriber(Blackhole sink) {
        boolean envelope = shape.equals("actioncable");
        for (CableMessage message : messages) {
            for (int subscriber = 0; subscriber < SUBSCRIBERS; subscriber++) {
                String frame = envelope ? envelope(message) : message.text();
                send(frame, sink);
            }
        }
    }

    private void send(String frame, Blackhole sink) {
        sink.consume(transport.equals("utf8") ? frame.getBytes(StandardCharsets.UTF_8) : frame);
    }

    /** The Action Cable broadcast frame: the identifier as a JSON string, the JSON payload embedded as is. */
    static String envelope(CableMessage message) {
        return "{\"identifier\":" + jsonString(IDENTIFIER) + ",\"message\":" + message.text() + "}";
    }

    static String jsonString(String value) {
        StringBuilder out = new StringBuilder(value.length() + 16).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
