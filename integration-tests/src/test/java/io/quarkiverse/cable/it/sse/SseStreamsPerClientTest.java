package io.quarkiverse.cable.it.sse;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.RawHttpStream;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * {@code sse.max-streams-per-client}: a client (its principal when authenticated, else its address) past the bound is
 * answered 429 before anything is sent, others are not, and a stream gives its place back however it ends.
 */
@QuarkusTest
@TestProfile(SseStreamsPerClientTest.Bound.class)
@DatabaseIndependent
public class SseStreamsPerClientTest {

    static final int BOUND = 4;
    static final Duration WAIT = Duration.ofSeconds(60);

    public static class Bound implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.sse.max-streams-per-client", Integer.toString(BOUND),
                    "quarkus.cable.sse.max-stream-duration", "4s",
                    "quarkus.cable.sse.max-pending-bytes", "64K",
                    "quarkus.cable.websocket.stall-timeout", "2s");
        }
    }

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    CableRuntimeConfig config;

    @TestHTTPResource("/")
    URI base;

    private static final String ALICE = "Authorization: Basic "
            + Base64.getEncoder().encodeToString("alice:alice-test-password".getBytes(StandardCharsets.UTF_8)) + "\r\n";

    @Test
    void aClientPastItsBoundIsRefusedBeforeAnythingIsSentAndOtherClientsAreNot() throws Exception {
        String channel = Channels.unique("sse-per-client");
        InetAddress one = RawHttpStream.loopback(4000);
        InetAddress other = RawHttpStream.loopback(4001);
        long refusedBefore = engine.stats().refusals(CableStats.Refusal.STREAMS_PER_CLIENT);
        List<RawHttpStream> open = new ArrayList<>();
        try {
            open.addAll(admitted(channel, one, "", BOUND));
            try (RawHttpStream past = RawHttpStream.sse(base, "/events/" + channel, null, 0, one, "")) {
                assertRefused(past);
            }
            assertThat(engine.stats().refusals(CableStats.Refusal.STREAMS_PER_CLIENT) - refusedBefore).isEqualTo(1);
            // Another address is another client.
            open.addAll(admitted(channel, other, "", 1));

            // An authenticated client is its principal, from any address: alice's streams from two addresses count
            // together, and apart from the anonymous streams of those addresses.
            InetAddress aliceHome = RawHttpStream.loopback(4002);
            InetAddress aliceWork = RawHttpStream.loopback(4003);
            open.addAll(admitted(channel, aliceHome, ALICE, BOUND - 1));
            open.addAll(admitted(channel, aliceWork, ALICE, 1));
            try (RawHttpStream past = RawHttpStream.sse(base, "/events/" + channel, null, 0, aliceWork, ALICE)) {
                assertRefused(past);
            }
            open.addAll(admitted(channel, aliceWork, "", BOUND));
            assertThat(engine.stats().refusals(CableStats.Refusal.STREAMS_PER_CLIENT) - refusedBefore).isEqualTo(2);
        } finally {
            open.forEach(RawHttpStream::close);
        }
    }

    /**
     * One client's streams end every way a stream ends, many times over: closed by the client, completed by the
     * endpoint, ended at {@code max-stream-duration}, reset as slow consumers, failed. Had one of them kept its place,
     * the client would soon be refused for good; it is still admitted its full count.
     */
    @Test
    void aStreamGivesItsPlaceBackHoweverItEnds() throws Exception {
        String channel = Channels.unique("sse-places");
        InetAddress client = RawHttpStream.loopback(4010);

        for (int round = 0; round < 10; round++) {
            // Closed by the client (assertFullCountAdmitted closes what it opened).
            assertFullCountAdmitted(channel, client);
        }

        for (int round = 0; round < 3; round++) {
            // Completed by the endpoint after its first event (Quarkus REST cancels the cable's stream).
            List<RawHttpStream> streams = new ArrayList<>();
            for (int i = 0; i < BOUND; i++) {
                streams.add(openOnceFree("/events/" + channel + "?drop-after=1", client, 0));
            }
            for (RawHttpStream stream : streams) {
                stream.readUntil("\r\n0\r\n\r\n", 1, WAIT);
                stream.close();
            }
        }
        assertFullCountAdmitted(channel, client);

        long endsBefore = engine.stats().sseMaxDurationEnds();
        List<RawHttpStream> lasting = new ArrayList<>();
        for (int i = 0; i < BOUND; i++) {
            lasting.add(openOnceFree("/events/" + channel, client, 0));
        }
        for (RawHttpStream stream : lasting) {
            // Ended by the cable at max-stream-duration (4 s) as a complete response; the client keeps the connection.
            stream.readUntil("\r\n0\r\n\r\n", 1, WAIT);
        }
        assertThat(engine.stats().sseMaxDurationEnds() - endsBefore).isGreaterThanOrEqualTo(BOUND);
        assertFullCountAdmitted(channel, client);
        lasting.forEach(RawHttpStream::close);

        long slowBefore = engine.stats().sseSlowConsumers();
        String slowChannel = Channels.unique("sse-places-slow");
        List<RawHttpStream> stalled = new ArrayList<>();
        for (int i = 0; i < BOUND; i++) {
            stalled.add(openOnceFree("/events/" + slowChannel, client, 4096));
        }
        Awaitility.await().atMost(WAIT).until(() -> engine.subscribersByChannel().getOrDefault(slowChannel, 0) == BOUND);
        // More than the socket buffers take (loopback's grow to megabytes), so each stream has events waiting.
        String filler = "s".repeat(100 * 1024);
        for (int i = 0; i < 200 && engine.stats().sseSlowConsumers() - slowBefore < BOUND; i++) {
            // Over the streams' 64 KiB: each is reset as a slow consumer, its response never ended.
            cable.broadcast(slowChannel, filler).toCompletableFuture().get(60, TimeUnit.SECONDS);
        }
        Awaitility.await().atMost(WAIT).until(() -> engine.stats().sseSlowConsumers() - slowBefore >= BOUND);
        for (RawHttpStream stream : stalled) {
            assertThat(stream.drainUntilClosed(30_000)).as("reset by the server").isTrue();
        }
        assertFullCountAdmitted(channel, client);

        String tooLong = "x".repeat(config.maxChannelLength() + 1);
        for (int i = 0; i < BOUND; i++) {
            // Failed: a channel over max-channel-length.
            try (RawHttpStream failed = RawHttpStream.sse(base, "/events/" + tooLong, null, 0, client, "")) {
                assertThat(failed.readHead()).doesNotStartWith("HTTP/1.1 429");
            }
        }
        assertFullCountAdmitted(channel, client);
    }

    /**
     * A stream of {@code client} answered 200, asked again while it is refused 429 (the client's earlier streams give
     * their places back when the server sees their end, which may be a moment after the test saw it), for at most
     * {@link #WAIT}.
     */
    private RawHttpStream openOnceFree(String path, InetAddress client, int receiveBuffer) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            RawHttpStream stream = RawHttpStream.sse(base, path, null, receiveBuffer, client, "");
            String head = stream.readHead();
            if (head.startsWith("HTTP/1.1 200")) {
                return stream;
            }
            stream.close();
            assertThat(head).startsWith("HTTP/1.1 429");
            assertThat(System.nanoTime()).as("%s admitted within %s", client, WAIT).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    /** {@code count} streams of {@code client}, each answered 200 and subscribed. */
    private List<RawHttpStream> admitted(String channel, InetAddress client, String headers, int count)
            throws Exception {
        List<RawHttpStream> streams = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                RawHttpStream stream = RawHttpStream.sse(base, "/events/" + channel, null, 0, client, headers);
                streams.add(stream);
                assertThat(stream.readHead()).as("stream %d of %s", i + 1, client).startsWith("HTTP/1.1 200");
                stream.readUntil("event:cable-subscribed", 1, WAIT);
            }
            return streams;
        } catch (Exception | AssertionError e) {
            streams.forEach(RawHttpStream::close);
            throw e;
        }
    }

    /**
     * The client is admitted {@link #BOUND} streams at once again. A stream's place comes back when the server sees
     * its end, which may be a moment after the test saw it: tried again for at most a minute.
     */
    private void assertFullCountAdmitted(String channel, InetAddress client) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            List<RawHttpStream> streams = new ArrayList<>();
            try {
                boolean all = true;
                for (int i = 0; i < BOUND && all; i++) {
                    RawHttpStream stream = RawHttpStream.sse(base, "/events/" + channel, null, 0, client, "");
                    streams.add(stream);
                    all = stream.readHead().startsWith("HTTP/1.1 200");
                }
                if (all) {
                    return;
                }
            } finally {
                streams.forEach(RawHttpStream::close);
            }
            assertThat(System.nanoTime()).as("%d streams of %s admitted again within %s", BOUND, client, WAIT)
                    .isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    private static void assertRefused(RawHttpStream stream) throws Exception {
        String head = stream.readHead();
        assertThat(head).startsWith("HTTP/1.1 429");
        assertThat(head.toLowerCase(Locale.ROOT)).contains("\r\nretry-after: 10\r\n");
        assertThat(head.toLowerCase(Locale.ROOT)).doesNotContain("text/event-stream");
    }
}
