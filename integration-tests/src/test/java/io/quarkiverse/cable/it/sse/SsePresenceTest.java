package io.quarkiverse.cable.it.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.CableEventStream;
import io.quarkiverse.cable.CablePresence;
import io.quarkiverse.cable.PresenceRecord;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Presence on SSE streams ({@code CableEventStream.streamWithPresence}), on H2, PostgreSQL and MariaDB: streams of one
 * id are one member (one join, one leave), a closed stream is not seen to leave while another stream of its id lives
 * nor before the TTL when it was the last, each stream hears the set's changes from its start, and ids the set refuses
 * are refused before anything streams.
 */
@OncePerServer
@QuarkusTest
public class SsePresenceTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TestHTTPResource("/")
    URI base;

    @Inject
    CablePresence presence;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.cable.presence.ttl")
    Duration ttl;

    private final List<PresentStream> streams = new ArrayList<>();

    /** An EventSource-like reader of one stream: the names and data of its events; its own client, to close it hard. */
    final class PresentStream implements AutoCloseable {
        final HttpClient http = HttpClient.newHttpClient();
        final List<String> presenceEvents = new CopyOnWriteArrayList<>();

        PresentStream(String channel, String user) {
            URI uri = base.resolve("/events/present/" + URLEncoder.encode(channel, StandardCharsets.UTF_8) + "?user="
                    + URLEncoder.encode(user, StandardCharsets.UTF_8));
            http.sendAsync(HttpRequest.newBuilder(uri).header("Accept", "text/event-stream").build(),
                    HttpResponse.BodyHandlers.ofLines()).thenAccept(response -> {
                        String[] name = { "" };
                        try (Stream<String> lines = response.body()) {
                            lines.forEach(line -> {
                                if (line.startsWith("event:")) {
                                    name[0] = line.substring(6).trim();
                                } else if (line.startsWith("data:")) {
                                    String data = line.substring(5).trim();
                                    if (name[0].equals(CableEventStream.PRESENCE)) {
                                        presenceEvents.add(data);
                                    }
                                } else if (line.isEmpty()) {
                                    name[0] = "";
                                }
                            });
                        } catch (RuntimeException ended) {
                            // the stream was closed
                        }
                    });
            streams.add(this);
        }

        PresentStream awaitEvent(String data) {
            await().atMost(WAIT).until(() -> presenceEvents.contains(data));
            return this;
        }

        @Override
        public void close() {
            http.shutdownNow(); // the connection goes at once, as when a tab closes
        }
    }

    @AfterEach
    void closeStreams() {
        streams.forEach(PresentStream::close);
    }

    private static String joined(String id) {
        return "{\"type\":\"join\",\"id\":\"" + id + "\",\"info\":{\"name\":\"" + id + "\"}}";
    }

    private static String left(String id) {
        return "{\"type\":\"leave\",\"id\":\"" + id + "\"}";
    }

    /** Sessions of {@code presenceId} in the database, and how many of them are ending (given the TTL). */
    private int[] sessions(String presenceId) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement select = c.prepareStatement("SELECT COUNT(*), COUNT(expires_at) FROM"
                        + " cable_presence_sessions WHERE presence_id = ?")) {
            select.setString(1, presenceId);
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return new int[] { rows.getInt(1), rows.getInt(2) };
            }
        }
    }

    @Test
    void streamsOfOneIdAreOneMemberThatLeavesWithItsLastStreamAfterTheTtl() throws Exception {
        String channel = Channels.unique("sse-presence");
        String ann = "ann-" + System.nanoTime();
        String bob = "bob-" + System.nanoTime();

        PresentStream annTab1 = new PresentStream(channel, ann).awaitEvent(joined(ann)); // hears its own join
        PresentStream annTab2 = new PresentStream(channel, ann);
        // Its join is silent (the id is present already): the fence is its session row.
        await().atMost(WAIT).until(() -> sessions(ann)[0] == 2);
        PresentStream bobTab = new PresentStream(channel, bob).awaitEvent(joined(bob));
        annTab1.awaitEvent(joined(bob));
        annTab2.awaitEvent(joined(bob));
        assertThat(annTab1.presenceEvents).containsExactly(joined(ann), joined(bob));
        assertThat(bobTab.presenceEvents).containsExactly(joined(bob)); // it started after ann's join
        assertThat(presence.snapshot(channel).toCompletableFuture().get(60, TimeUnit.SECONDS).records())
                .containsExactlyInAnyOrder(new PresenceRecord(ann, "{\"name\":\"" + ann + "\"}"),
                        new PresenceRecord(bob, "{\"name\":\"" + bob + "\"}"));

        // One of ann's tabs closes: its session ends after the TTL, ann stays (her other tab holds the id).
        annTab1.close();
        await().atMost(WAIT).until(() -> sessions(ann)[1] == 1);
        await().atMost(WAIT).until(() -> sessions(ann)[0] == 1); // reaped: the moment a leave would have been written
        assertThat(bobTab.presenceEvents).containsExactly(joined(bob));

        // Her last tab closes: one leave, not before the TTL.
        long closedAt = System.nanoTime();
        annTab2.close();
        bobTab.awaitEvent(left(ann));
        assertThat(Duration.ofNanos(System.nanoTime() - closedAt)).isGreaterThan(ttl.minusMillis(300));
        assertThat(bobTab.presenceEvents).containsExactly(joined(bob), left(ann));
        assertThat(presence.snapshot(channel).toCompletableFuture().get(60, TimeUnit.SECONDS).records())
                .containsExactly(new PresenceRecord(bob, "{\"name\":\"" + bob + "\"}"));
    }

    @Test
    void idsThePresenceSetRefusesAreRefusedBeforeAnythingStreams() throws Exception {
        String channel = Channels.unique("sse-presence-refused");
        for (String id : List.of("", "x".repeat(256))) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(base.resolve(
                    "/events/present/" + URLEncoder.encode(channel, StandardCharsets.UTF_8) + "?user=" + id))
                    .header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as("id of %d characters", id.length()).isEqualTo(400);
        }
        assertThat(presence.count(channel).toCompletableFuture().get(60, TimeUnit.SECONDS)).isZero();
    }
}
