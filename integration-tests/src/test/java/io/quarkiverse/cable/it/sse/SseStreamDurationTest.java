package io.quarkiverse.cable.it.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableEventStream;
import io.quarkiverse.cable.CablePresence;
import io.quarkiverse.cable.PresenceEvent;
import io.quarkiverse.cable.PresenceRecord;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.FreezingProxy;
import io.quarkiverse.cable.it.NodeTests;
import io.quarkiverse.cable.it.RawHttpStream;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * {@code quarkus.cable.sse.max-stream-duration} (1 s here, so each stream ends between 0.75 and 1 s; TTL 5 s,
 * heartbeats every 200 ms), on H2, PostgreSQL and MariaDB. An SSE client behind a proxy that stops forwarding without
 * closing keeps taking heartbeats (its kernel's buffers do), so nothing stalls and TCP never gives up: before the
 * limit it stayed in its presence set for as long as the process lived. Now its stream ends, it does not come back,
 * and it leaves within the duration plus the TTL. A client that does come back (as {@code EventSource} does, with
 * {@code Last-Event-ID}) loses, repeats and reorders nothing across the ends, and its presence never flickers; the end
 * is a complete response, nothing logged. src/test/js/sse-stream-duration.test.js does the same in Chromium.
 */
@DatabaseIndependent
@QuarkusTest
@TestProfile(SseStreamDurationTest.ShortStreams.class)
public class SseStreamDurationTest {

    public static class ShortStreams implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.sse.max-stream-duration", "1s",
                    "quarkus.cable.sse.heartbeat-interval", "200ms",
                    "quarkus.cable.presence.ttl", "5s");
        }
    }

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TestHTTPResource("/")
    URI base;

    @Inject
    Cable cable;

    @Inject
    CablePresence presence;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    AgroalDataSource dataSource;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : open) {
            closeable.close();
        }
    }

    @Test
    void aMemberThatVanishedBehindAProxyLeavesWithinTheDurationPlusTheTtl() throws Exception {
        String channel = Channels.unique("sse-vanish");
        String id = "vanishing-" + System.nanoTime();
        List<PresenceEvent> seen = watch(channel);
        FreezingProxy proxy = FreezingProxy.to(base.getPort());
        open.add(proxy);
        ReconnectingEventSource member = present(URI.create("http://127.0.0.1:" + proxy.port() + "/"), channel, id);
        await().atMost(WAIT).until(() -> events(seen, id).size() == 1);
        // It comes back after every end while the proxy forwards.
        await().atMost(WAIT).until(() -> member.opens.get() >= 3);
        long endsBefore = engine.stats().sseMaxDurationEnds();

        long frozenAt = System.nanoTime();
        proxy.freeze();
        await().atMost(WAIT).until(() -> events(seen, id).size() == 2);
        long tookMillis = Duration.ofNanos(System.nanoTime() - frozenAt).toMillis();
        System.out.printf("SseStreamDurationTest: the vanished SSE member left %d ms after its proxy froze"
                + " (max-stream-duration 1 s, TTL 5 s)%n", tookMillis);

        assertThat(events(seen, id)).containsExactly(PresenceEvent.Type.JOIN, PresenceEvent.Type.LEAVE);
        assertThat(presence.snapshot(channel).toCompletableFuture().get(60, TimeUnit.SECONDS).records()).isEmpty();
        // Its stream was ended by the limit: the heartbeats went into the proxy's buffers and never stalled it.
        assertThat(engine.stats().sseMaxDurationEnds()).isGreaterThan(endsBefore);
    }

    @Test
    void aMemberThatComesBackAfterEachEndNeverLeaves() throws Exception {
        String channel = Channels.unique("sse-comes-back");
        String id = "staying-" + System.nanoTime();
        List<PresenceEvent> seen = watch(channel);
        ReconnectingEventSource member = present(base, channel, id);
        await().atMost(WAIT).until(() -> events(seen, id).size() == 1);
        List<String> firstSessions = sessions(id);
        assertThat(firstSessions).hasSize(1);

        // The first stream's session ended (the limit) and was reaped after the TTL: the moment its leave would have
        // been written, had the member not come back within the TTL with a stream of its own.
        await().atMost(WAIT).until(() -> member.opens.get() >= 3 && !sessions(id).contains(firstSessions.get(0)));
        assertThat(events(seen, id)).containsExactly(PresenceEvent.Type.JOIN);
        assertThat(presence.snapshot(channel).toCompletableFuture().get(60, TimeUnit.SECONDS).records())
                .containsExactly(new PresenceRecord(id, "{\"name\":\"" + id + "\"}"));

        // Gone for good: one leave, after the TTL.
        member.close();
        await().atMost(WAIT).until(() -> events(seen, id).size() == 2);
        assertThat(events(seen, id)).containsExactly(PresenceEvent.Type.JOIN, PresenceEvent.Type.LEAVE);
    }

    @Test
    void aReaderAcrossEndsWithBroadcastsRunningLosesRepeatsAndReordersNothing() throws Exception {
        String channel = Channels.unique("sse-ends");
        ReconnectingEventSource reader = new ReconnectingEventSource(base.resolve("/events/" + encoded(channel)));
        open.add(reader);
        await().atMost(WAIT).until(() -> !reader.data(CableEventStream.SUBSCRIBED).isEmpty());
        long endsBefore = engine.stats().sseMaxDurationEnds();

        // Broadcasts one after another (each committed before the next) until the stream was ended four times.
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        int sent = 0;
        while (reader.opens.get() < 5 || sent < 50) {
            assertThat(System.nanoTime() - deadline).as("four ends within two minutes").isNegative();
            cable.broadcast(channel, String.valueOf(++sent)).toCompletableFuture().get(60, TimeUnit.SECONDS);
        }
        int total = sent;
        await().atMost(WAIT).until(() -> reader.data("message").size() >= total);

        assertThat(reader.data("message")).as("every message once, in order")
                .containsExactlyElementsOf(IntStream.rangeClosed(1, total).mapToObj(String::valueOf).toList());
        List<ReconnectingEventSource.Event> messages = reader.events.stream()
                .filter(e -> e.name().equals("message")).toList();
        String epoch = messages.get(0).lastEventId().substring(0, messages.get(0).lastEventId().indexOf(':'));
        for (int i = 0; i < total; i++) {
            assertThat(messages.get(i).lastEventId()).isEqualTo(epoch + ":" + (i + 1));
        }
        assertThat(reader.data(CableEventStream.HISTORY_LOST)).isEmpty();
        assertThat(reader.data(CableEventStream.SUBSCRIBED)).hasSize(1); // every later stream was a resume
        assertThat(reader.askedWith.subList(1, reader.askedWith.size())).doesNotContain("null");
        assertThat(engine.stats().sseMaxDurationEnds() - endsBefore).isGreaterThanOrEqualTo(4);
    }

    @Test
    void anEndedStreamIsACompleteResponseAndNothingIsLogged() throws Exception {
        String channel = Channels.unique("sse-clean-end");
        try (Warnings warnings = new Warnings();
                RawHttpStream stream = RawHttpStream.sse(base, "/events/" + encoded(channel), null, 0)) {
            String head = stream.readHead();
            assertThat(head).startsWith("HTTP/1.1 200").containsIgnoringCase("transfer-encoding: chunked");
            // The last chunk: the response completed, it was not reset (a slow consumer's connection is).
            String body = stream.readUntil("\r\n0\r\n\r\n", 1, WAIT);
            assertThat(body).contains("event:cable-subscribed");
            // The connection is kept alive and serves the next request: nothing was torn down.
            stream.out.write(("GET /events/" + encoded(channel) + " HTTP/1.1\r\nHost: " + base.getHost() + ":"
                    + base.getPort() + "\r\nAccept: text/event-stream\r\nLast-Event-ID: 0\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            stream.out.flush();
            assertThat(stream.readHead()).startsWith("HTTP/1.1 200");
            stream.readUntil("\r\n0\r\n\r\n", 1, WAIT);
            assertThat(warnings.records).isEmpty();
        }
    }

    @Test
    void aChromiumEventSourceResumesExactlyAcrossEnds() throws Exception {
        NodeTests.assertPasses(base, "sse-stream-duration.test.js", 1);
    }

    /** Warnings and errors of Quarkus REST, Vert.x and the cable while it is open. */
    static final class Warnings extends Handler implements AutoCloseable {
        final List<String> records = new CopyOnWriteArrayList<>();
        private final Logger root = Logger.getLogger("");

        Warnings() {
            root.addHandler(this);
        }

        @Override
        public void publish(LogRecord record) {
            String logger = String.valueOf(record.getLoggerName());
            if (record.getLevel().intValue() >= Level.WARNING.intValue() && (logger.startsWith("io.quarkus")
                    || logger.startsWith("org.jboss.resteasy") || logger.startsWith("io.vertx")
                    || logger.startsWith("io.quarkiverse.cable"))) {
                records.add(logger + ": " + record.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            root.removeHandler(this);
        }
    }

    private ReconnectingEventSource present(URI to, String channel, String id) {
        ReconnectingEventSource member = new ReconnectingEventSource(to.resolve("/events/present/" + encoded(channel)
                + "?user=" + URLEncoder.encode(id, StandardCharsets.UTF_8)));
        open.add(member);
        return member;
    }

    private List<PresenceEvent> watch(String channel) {
        List<PresenceEvent> seen = new CopyOnWriteArrayList<>();
        Cancellable listening = presence.events(channel).subscribe().with(seen::add);
        open.add(listening::cancel);
        return seen;
    }

    private static List<PresenceEvent.Type> events(List<PresenceEvent> seen, String id) {
        return seen.stream().filter(event -> event.id().equals(id)).map(PresenceEvent::type).toList();
    }

    /** The ids of {@code presenceId}'s sessions in the database. */
    private List<String> sessions(String presenceId) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement select = c.prepareStatement(
                        "SELECT session_id FROM cable_presence_sessions WHERE presence_id = ?")) {
            select.setString(1, presenceId);
            List<String> ids = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
            return ids;
        }
    }

    private static String encoded(String channel) {
        return URLEncoder.encode(channel, StandardCharsets.UTF_8);
    }
}
