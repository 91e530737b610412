package io.quarkiverse.cable.it.presence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.CablePresence;
import io.quarkiverse.cable.PresenceEvent;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Vertx;

/**
 * Presence on a {@code @StreamFrom} endpoint ({@link PresenceRoomSocket}, {@code CableStreams.joinPresence}) over real
 * WebSocket connections and the real database: two connections of one user are one join; closing one is no leave,
 * closing the last is one leave after the TTL (2 s in the test profile); an explicit leave is a leave at once; bad ids
 * fail the join's stage with InvalidMessage. Events are read with {@code CablePresence.events}, in the order the
 * cable's presence channel delivers them, so a fence event (a join on another set, made later) proves that no
 * earlier event is still on its way.
 */
@OncePerServer
@QuarkusTest
public class StreamPresenceTest {

    private static final Duration BOUND = Duration.ofSeconds(60);
    private static Vertx vertx;

    @TestHTTPResource("/")
    URI base;

    @Inject
    CablePresence presence;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    AgroalDataSource dataSource;

    private final List<WsClient> clients = new ArrayList<>();
    private final List<Cancellable> listeners = new ArrayList<>();

    @BeforeAll
    static void startClient() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopClient() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @AfterEach
    void stop() throws Exception {
        for (WsClient client : clients) {
            client.close();
        }
        listeners.forEach(Cancellable::cancel);
    }

    @Test
    void twoConnectionsOfOneUserAreOneJoinAndTheLastCloseIsOneLeaveAfterTheTtl() throws Exception {
        String room = "stream-presence-" + UUID.randomUUID();
        String set = "room:" + room;
        String user = "ann-" + UUID.randomUUID();
        List<PresenceEvent> events = listen(set);

        WsClient tab1 = connect(room, user).awaitFrame("joined");
        await().atMost(BOUND).until(() -> events.size() >= 1);
        WsClient tab2 = connect(room, user).awaitFrame("joined");
        assertThat(count(set)).isEqualTo(1);
        fence();
        assertThat(events).extracting(PresenceEvent::type, PresenceEvent::id)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(PresenceEvent.Type.JOIN, user));
        assertThat(events.get(0).info()).isEqualTo("{\"name\":\"" + user + "\"}");
        assertThat(sessions(user)).isEqualTo(2);

        // The first tab goes: its session is handed to the TTL and ends after it, but the id stays (the other tab).
        tab1.close();
        await().atMost(BOUND).until(() -> sessions(user) == 1);
        fence();
        assertThat(events).extracting(PresenceEvent::type).containsExactly(PresenceEvent.Type.JOIN);
        assertThat(count(set)).isEqualTo(1);

        // The last tab goes: one leave, after the TTL, and the set is empty.
        long closedAt = System.nanoTime();
        tab2.close();
        await().atMost(BOUND).until(() -> events.size() >= 2);
        assertThat(Duration.ofNanos(System.nanoTime() - closedAt)).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
        fence();
        assertThat(events).extracting(PresenceEvent::type, PresenceEvent::id).containsExactly(
                org.assertj.core.groups.Tuple.tuple(PresenceEvent.Type.JOIN, user),
                org.assertj.core.groups.Tuple.tuple(PresenceEvent.Type.LEAVE, user));
        assertThat(presence.snapshot(set).toCompletableFuture().join().total()).isZero();
        assertThat(sessions(user)).isZero();
    }

    @Test
    void anExplicitLeaveIsALeaveAtOnce() throws Exception {
        String room = "stream-presence-leave-" + UUID.randomUUID();
        String set = "room:" + room;
        String user = "bob-" + UUID.randomUUID();
        List<PresenceEvent> events = listen(set);
        WsClient client = connect(room, user).awaitFrame("joined");
        // A second join with the same id only updates the info (here to none): an update event, no join.
        client.send("join:" + user);
        await().atMost(BOUND).until(() -> client.received.stream().filter("joined"::equals).count() == 2);
        // Another id on the same set is refused.
        client.send("join:someone-else");
        await().atMost(BOUND).until(() -> client.received.stream().anyMatch(frame -> frame.startsWith("refused")));
        assertThat(client.received).anyMatch(frame -> frame.startsWith("refused InvalidMessage")
                && frame.contains("another presence id"));

        client.send("leave");
        client.awaitFrame("left");
        // Committed before "left" was sent: the leave is there now, not after the TTL, and the connection is open.
        assertThat(count(set)).isZero();
        await().atMost(BOUND).until(() -> events.size() >= 3);
        fence();
        assertThat(events).extracting(PresenceEvent::type).containsExactly(PresenceEvent.Type.JOIN,
                PresenceEvent.Type.UPDATE, PresenceEvent.Type.LEAVE);
        assertThat(sessions(user)).isZero();

        // It may join again after leaving, as another id too.
        client.send("join:" + user + "-again");
        await().atMost(BOUND).until(() -> client.received.stream().filter("joined"::equals).count() == 3);
        assertThat(count(set)).isEqualTo(1);
    }

    /**
     * What one connection can make the server hold: at most quarkus.cable.limits.max-subscriptions (128) presence
     * memberships. The next join fails its stage with InvalidMessage, joins nothing, and a connection beside it joins
     * the same set.
     */
    @Test
    void oneConnectionJoinsAtMostMaxSubscriptionsSetsAndAnotherStillJoins() throws Exception {
        String room = "stream-presence-many-" + UUID.randomUUID();
        String hoarder = "hoarder-" + UUID.randomUUID();
        WsClient client = connect(room, hoarder).awaitFrame("joined");
        for (int i = 1; i < 128; i++) {
            client.send("also:" + room + "-" + i);
            int joined = i + 1;
            await().atMost(BOUND).until(() -> client.received.stream().filter("joined"::equals).count() == joined);
        }
        client.send("also:" + room + "-over");
        await().atMost(BOUND).until(() -> client.received.size() == 129);
        assertThat(client.received.get(128)).startsWith("refused InvalidMessage")
                .contains("quarkus.cable.limits.max-subscriptions");
        assertThat(client.received).hasSize(129).filteredOn("joined"::equals).hasSize(128);
        assertThat(count("room:" + room + "-over")).isZero();
        assertThat(count("room:" + room + "-127")).isEqualTo(1);

        String healthy = "healthy-" + UUID.randomUUID();
        connect(room + "-over", healthy).awaitFrame("joined");
        assertThat(presence.snapshot("room:" + room + "-over").toCompletableFuture().join().records())
                .extracting(record -> record.id()).containsExactly(healthy);
    }

    /**
     * Join/leave churn on one connection and channel is bounded by presence.changes-per-second (2, bursts of 10): the
     * excess joins fail their stage with QueueFull, make no event and are counted as presence_rate; leaves always go
     * (each follows a join); another connection on the same set is not affected.
     */
    @Test
    void joinChurnIsBoundedPerConnectionAndChannel() throws Exception {
        String room = "stream-presence-churn-" + UUID.randomUUID();
        String set = "room:" + room;
        String user = "churn-" + UUID.randomUUID();
        List<PresenceEvent> events = listen(set);
        long refusedBefore = engine.stats().refusals(CableStats.Refusal.PRESENCE_RATE);
        long started = System.nanoTime();
        WsClient churner = connect(room, user).awaitFrame("joined");
        for (int i = 0; i < 60; i++) {
            int answers = churner.received.size();
            churner.send("leave");
            await().atMost(BOUND).pollInterval(Duration.ofMillis(2)).until(() -> churner.received.size() == answers + 1);
            churner.send("join:" + user);
            await().atMost(BOUND).pollInterval(Duration.ofMillis(2)).until(() -> churner.received.size() == answers + 2);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("STREAM-PRESENCE-CHURN 60 leave/join pairs in %.2f s: %d joins admitted, %d refused%n", seconds,
                churner.received.stream().filter("joined"::equals).count(),
                churner.received.stream().filter(frame -> frame.startsWith("refused")).count());

        List<String> refused = churner.received.stream().filter(frame -> frame.startsWith("refused")).toList();
        long joined = churner.received.stream().filter("joined"::equals).count();
        assertThat(churner.received).filteredOn("left"::equals).hasSize(60);
        assertThat(joined + refused.size()).isEqualTo(61);
        assertThat(refused).isNotEmpty().allSatisfy(frame -> assertThat(frame).startsWith("refused QueueFull")
                .contains("quarkus.cable.presence.changes-per-second"));
        assertThat(joined).as("joins admitted in %.1f s", seconds).isLessThanOrEqualTo(10 + (long) Math.ceil(2 * seconds));
        assertThat(engine.stats().refusals(CableStats.Refusal.PRESENCE_RATE) - refusedBefore).isEqualTo(refused.size());

        // Another connection joins the same set at once: the bound is the churner's.
        String other = "beside-" + UUID.randomUUID();
        connect(room, other).awaitFrame("joined");
        fence();
        // Each admitted join was one join event and each of its leaves one leave: a refused join made none.
        assertThat(events).filteredOn(event -> event.id().equals(user) && event.type() == PresenceEvent.Type.JOIN)
                .hasSize((int) joined);
        assertThat(events).filteredOn(event -> event.id().equals(user) && event.type() == PresenceEvent.Type.LEAVE)
                .hasSize(churner.received.get(churner.received.size() - 1).equals("joined") ? (int) joined - 1
                        : (int) joined);
        assertThat(events).filteredOn(event -> event.id().equals(other)).extracting(PresenceEvent::type)
                .containsExactly(PresenceEvent.Type.JOIN);
    }

    @Test
    void badIdsFailTheStageWithInvalidMessage() throws Exception {
        String room = "stream-presence-bad-" + UUID.randomUUID();
        String set = "room:" + room;
        WsClient empty = connect(room, "");
        await().atMost(BOUND).until(() -> !empty.received.isEmpty());
        assertThat(empty.received.get(0)).startsWith("refused InvalidMessage").contains("must not be empty");

        WsClient noUser = WsClient.connect(vertx, base, "/presence-rooms/" + room);
        clients.add(noUser);
        await().atMost(BOUND).until(() -> !noUser.received.isEmpty());
        assertThat(noUser.received.get(0)).startsWith("refused InvalidMessage");

        noUser.send("join:" + "x".repeat(256));
        await().atMost(BOUND).until(() -> noUser.received.size() >= 2);
        assertThat(noUser.received.get(1)).startsWith("refused InvalidMessage").contains("at most 255");
        // 255 characters are fine.
        noUser.send("join:" + "x".repeat(255));
        await().atMost(BOUND).until(() -> noUser.received.size() >= 3);
        assertThat(noUser.received.get(2)).isEqualTo("joined");
        assertThat(count(set)).isEqualTo(1);
    }

    private WsClient connect(String room, String user) throws Exception {
        WsClient client = WsClient.connect(vertx, base, "/presence-rooms/" + room + "?user=" + user);
        clients.add(client);
        return client;
    }

    private List<PresenceEvent> listen(String set) {
        List<PresenceEvent> events = new CopyOnWriteArrayList<>();
        listeners.add(presence.events(set).subscribe().with(events::add));
        return events;
    }

    /**
     * A join and leave on a set of their own, made now and awaited: presence events travel on one channel in commit
     * order, so every event committed before this one has been delivered once it arrives.
     */
    private void fence() {
        String set = Channels.unique("stream-presence-fence");
        List<PresenceEvent> events = listen(set);
        String session = "fence-" + UUID.randomUUID();
        engine.presence().join(set, "fence", session, null);
        engine.presence().leave(set, "fence", session);
        await().atMost(BOUND).until(() -> events.size() >= 2);
    }

    private int count(String set) {
        return presence.count(set).toCompletableFuture().join();
    }

    private long sessions(String presenceId) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement statement = c
                        .prepareStatement("SELECT COUNT(*) FROM cable_presence_sessions WHERE presence_id = ?")) {
            statement.setString(1, presenceId);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
