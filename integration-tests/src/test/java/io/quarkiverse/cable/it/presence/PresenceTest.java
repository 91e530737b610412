package io.quarkiverse.cable.it.presence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CablePresence;
import io.quarkiverse.cable.PresenceEvent;
import io.quarkiverse.cable.PresenceRecord;
import io.quarkiverse.cable.it.CableConfigs;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.DatabaseNodes;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * Presence as raw frames ({@code @anycable/web}'s {@code channel.presence}): joins and leaves once per presence id
 * however many sessions join with it, the TTL after an abrupt disconnect, the info reply (records, the empty set, no
 * records on request), an error frame for every presence command that cannot be served; across nodes through the
 * database, with a second engine on the same database as the other node (its TTL 60 s, so "a reconnect within the
 * TTL" does not depend on how busy the machine is). The application's TTL is 2 s here.
 */
@QuarkusTest
public class PresenceTest {

    private static final String EXT = "actioncable-v1-ext-json";
    private static final String V1 = "actioncable-v1-json";
    private static Vertx vertx;

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

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @ConfigProperty(name = "quarkus.cable.presence.ttl")
    Duration ttl;

    private final List<WsClient> clients = new ArrayList<>();
    private CableEngine nodeTwo;

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
        if (nodeTwo != null) {
            nodeTwo.stop();
        }
    }

    @Test
    void anIdJoinsWithItsFirstSessionAndLeavesWithItsLast() throws Exception {
        String room = Channels.unique("team");
        String chat = chat(room);
        WsClient annTab1 = subscribed("ann", EXT, chat);
        WsClient annTab2 = subscribed("ann", EXT, chat);
        WsClient bob = subscribed("bob", EXT, chat);

        annTab1.send(join(chat, "\"ann\"", "{\"name\":\"Ann\"}"));
        String annJoined = presenceFrame(chat, "{\"type\":\"join\",\"id\":\"ann\",\"info\":{\"name\":\"Ann\"}}");
        // To every member of the set, the joiner too.
        for (WsClient client : List.of(annTab1, annTab2, bob)) {
            client.awaitFrame(annJoined);
        }
        // Her second tab joins with the same id: no event. The fence: its info reply comes after its join committed,
        // so a join event of it would reach bob before bob's own join event.
        annTab2.send(join(chat, "\"ann\"", "{\"name\":\"Ann (tab 2)\"}"));
        annTab2.send(info(chat));
        annTab2.awaitFrame(presenceFrame(chat, "{\"type\":\"info\",\"total\":1,\"records\":[{\"id\":\"ann\",\"info\":"
                + "{\"name\":\"Ann (tab 2)\"}}]}"));
        bob.send(join(chat, "\"bob\"", null));
        String bobJoined = presenceFrame(chat, "{\"type\":\"join\",\"id\":\"bob\"}");
        annTab1.awaitFrame(bobJoined);
        bob.awaitFrame(bobJoined);
        assertThat(presenceEvents(bob, chat)).containsExactly(annJoined, bobJoined);

        // The first tab goes: ann is still here (a leave of it would be a second one in bob's list below).
        annTab1.send(unsubscribe(chat));
        annTab2.send(info(chat));
        annTab2.awaitFrame(presenceFrame(chat, "{\"type\":\"info\",\"total\":2,\"records\":[{\"id\":\"ann\",\"info\":"
                + "{\"name\":\"Ann (tab 2)\"}},{\"id\":\"bob\"}]}"));
        // The second one leaves explicitly: now she is gone, at once.
        annTab2.send(leave(chat));
        String annLeft = presenceFrame(chat, "{\"type\":\"leave\",\"id\":\"ann\"}");
        bob.awaitFrame(annLeft);
        assertThat(presenceEvents(bob, chat)).containsExactly(annJoined, bobJoined, annLeft);
        assertThat(presence.snapshot("chat:" + room).toCompletableFuture().get(60, TimeUnit.SECONDS).records())
                .containsExactly(new PresenceRecord("bob", null));
    }

    @Test
    void aSessionThatDisconnectsLeavesWhenTheTtlEnds() throws Exception {
        String chat = chat(Channels.unique("ttl"));
        WsClient dave = subscribed("dave", EXT, chat);
        WsClient bob = subscribed("bob", V1, chat); // presence frames go to plain clients too, as in AnyCable
        dave.send(join(chat, "\"dave\"", null));
        bob.awaitFrame(presenceFrame(chat, "{\"type\":\"join\",\"id\":\"dave\"}"));
        long closedAt = System.nanoTime();
        dave.close();
        String daveLeft = presenceFrame(chat, "{\"type\":\"leave\",\"id\":\"dave\"}");
        await().atMost(Duration.ofSeconds(60)).until(() -> bob.received.contains(daveLeft));
        // Never before the TTL ended: its rows expire at close + TTL (a little slack for the close's own travel).
        assertThat(Duration.ofNanos(System.nanoTime() - closedAt)).isGreaterThan(ttl.minusMillis(300));
        assertThat(presenceEvents(bob, chat)).containsExactly(
                presenceFrame(chat, "{\"type\":\"join\",\"id\":\"dave\"}"), daveLeft);
    }

    @Test
    void theServerJoinsForAClientAndNumericIdsAreText() throws Exception {
        String chat = chat(Channels.unique("open-server")); // an open room: "42" is a client-chosen id
        WsClient erin = subscribed("erin", EXT, chat);
        erin.send(perform(chat, "here"));
        erin.awaitFrame(presenceFrame(chat, "{\"type\":\"join\",\"id\":\"erin\",\"info\":{\"name\":\"erin\"}}"));
        // Older @anycable/core sent numbers; taken as their decimal text.
        WsClient numeric = subscribed("n", EXT, chat);
        numeric.send(join(chat, "42", "\"forty-two\""));
        erin.awaitFrame(presenceFrame(chat, "{\"type\":\"join\",\"id\":\"42\",\"info\":\"forty-two\"}"));
        // A join on subscribe (a client re-subscribing while it holds a join) is made once confirmed.
        WsClient frank = WsClient.connect(vertx, base, "/cable?user=frank", EXT);
        clients.add(frank);
        frank.send(new JsonObject().put("command", "subscribe").put("identifier", chat)
                .put("presence", new JsonObject().put("id", "frank")).encode());
        frank.awaitFrame(confirm(chat));
        frank.awaitFrame(presenceFrame(chat, "{\"type\":\"join\",\"id\":\"frank\"}"));
        assertThat(frank.received.indexOf(confirm(chat)))
                .isLessThan(frank.received.indexOf(presenceFrame(chat, "{\"type\":\"join\",\"id\":\"frank\"}")));
        frank.send(new JsonObject().put("command", "presence").put("identifier", chat)
                .put("data", new JsonObject().put("return_records", false)).encode());
        frank.awaitFrame(presenceFrame(chat, "{\"type\":\"info\",\"total\":3}"));
    }

    @Test
    void aClientJoinsAsItsOwnIdentityOnly() throws Exception {
        String chat = chat(Channels.unique("signed-in"));
        WsClient alice = subscribed("alice", EXT, chat);
        WsClient eve = subscribed("eve", EXT, chat);
        String error = presenceFrame(chat, "{\"type\":\"error\",\"total\":0}");

        // eve claims to be alice, with a role: refused with the presence error, nothing stored, nobody told.
        eve.send(join(chat, "\"alice\"", "{\"role\":\"admin\"}"));
        eve.awaitFrame(error);
        // The same claim sent with the subscribe (the form @anycable/core uses on resubscribe).
        WsClient eveAgain = WsClient.connect(vertx, base, "/cable?user=eve", EXT);
        clients.add(eveAgain);
        eveAgain.send(new JsonObject().put("command", "subscribe").put("identifier", chat)
                .put("presence", new JsonObject().put("id", "alice")).encode());
        eveAgain.awaitFrame(confirm(chat));
        eveAgain.awaitFrame(error);

        // Joined by the server as herself (the here action), eve leaves and tries again as alice: refused too.
        eve.send(perform(chat, "here"));
        String eveJoined = presenceFrame(chat, "{\"type\":\"join\",\"id\":\"eve\",\"info\":{\"name\":\"eve\"}}");
        alice.awaitFrame(eveJoined);
        eve.send(leave(chat));
        String eveLeft = presenceFrame(chat, "{\"type\":\"leave\",\"id\":\"eve\"}");
        alice.awaitFrame(eveLeft);
        int errors = (int) eve.received.stream().filter(error::equals).count();
        eve.send(join(chat, "\"alice\"", null));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> eve.received.stream().filter(error::equals).count() == errors + 1);

        // alice herself joins as alice; the set is hers alone, and the only events are eve's own and hers.
        alice.send(join(chat, "\"alice\"", "{\"name\":\"Alice\"}"));
        String aliceJoined = presenceFrame(chat, "{\"type\":\"join\",\"id\":\"alice\",\"info\":{\"name\":\"Alice\"}}");
        alice.awaitFrame(aliceJoined);
        alice.send(info(chat));
        alice.awaitFrame(presenceFrame(chat,
                "{\"type\":\"info\",\"total\":1,\"records\":[{\"id\":\"alice\",\"info\":{\"name\":\"Alice\"}}]}"));
        assertThat(presenceEvents(alice, chat)).containsExactly(eveJoined, eveLeft, aliceJoined);
    }

    @Test
    void aMemberThatJoinsAgainWithOtherInfoIsAnUpdateEveryoneHears() throws Exception {
        String chat = chat(Channels.unique("renamed"));
        WsClient annTab1 = subscribed("ann", EXT, chat);
        WsClient annTab2 = subscribed("ann", EXT, chat);
        WsClient bob = subscribed("bob", V1, chat);
        LinkedBlockingQueue<PresenceEvent> events = new LinkedBlockingQueue<>();
        String stream = "chat:" + chat.substring(chat.indexOf("\"room\":\"") + 8, chat.lastIndexOf('"'));
        Cancellable listening = presence.events(stream).subscribe().with(events::add);
        try {
            annTab1.send(join(chat, "\"ann\"", "{\"name\":\"Ann\"}"));
            bob.awaitFrame(presenceFrame(chat, "{\"type\":\"join\",\"id\":\"ann\",\"info\":{\"name\":\"Ann\"}}"));
            // Her second tab with the same info: silent. Then with a new name: an update, to every member.
            annTab2.send(join(chat, "\"ann\"", "{\"name\":\"Ann\"}"));
            annTab2.send(join(chat, "\"ann\"", "{\"name\":\"Ann B.\"}"));
            String update = presenceFrame(chat, "{\"type\":\"update\",\"id\":\"ann\",\"info\":{\"name\":\"Ann B.\"}}");
            bob.awaitFrame(update);
            annTab1.awaitFrame(update);
            assertThat(bob.received.stream().filter(frame -> frame.contains("\"type\":\"update\""))).hasSize(1);
            assertThat(events.poll(60, TimeUnit.SECONDS)).isEqualTo(
                    new PresenceEvent(stream, PresenceEvent.Type.JOIN, "ann", "{\"name\":\"Ann\"}"));
            assertThat(events.poll(60, TimeUnit.SECONDS)).isEqualTo(
                    new PresenceEvent(stream, PresenceEvent.Type.UPDATE, "ann", "{\"name\":\"Ann B.\"}"));
            bob.send(info(chat));
            bob.awaitFrame(presenceFrame(chat,
                    "{\"type\":\"info\",\"total\":1,\"records\":[{\"id\":\"ann\",\"info\":{\"name\":\"Ann B.\"}}]}"));
        } finally {
            listening.cancel();
        }
    }

    @Test
    void aChannelThatAllowsClientChosenIdsSaysSoInCode() throws Exception {
        // ChatChannel's open-* rooms call allowClientChosenPresenceIds(): there any id goes, and it proves nothing.
        String chat = chat(Channels.unique("open-lobby"));
        WsClient eve = subscribed("eve", EXT, chat);
        eve.send(join(chat, "\"guest-7\"", null));
        eve.awaitFrame(presenceFrame(chat, "{\"type\":\"join\",\"id\":\"guest-7\"}"));
    }

    @Test
    void everyPresenceCommandThatCannotBeServedGetsAnErrorFrame() throws Exception {
        String empty = chat(Channels.unique("empty"));
        WsClient gil = subscribed("gil", EXT, empty);
        // The empty set has records: [] (clients before @anycable/core 1.1.6 fail without it).
        gil.send(info(empty));
        gil.awaitFrame(presenceFrame(empty, "{\"type\":\"info\",\"total\":0,\"records\":[]}"));

        String error = "{\"type\":\"error\",\"total\":0}";
        String none = chat("nopresence");
        WsClient hal = subscribed("hal", EXT, none);
        hal.send(info(none)); // a channel without a presence set
        hal.awaitFrame(presenceFrame(none, error));
        hal.send(join(none, "\"hal\"", null));
        String unknown = chat(Channels.unique("never-subscribed"));
        hal.send(info(unknown)); // an identifier that is not subscribed: the error under it, so a client stops waiting
        hal.awaitFrame(presenceFrame(unknown, error));
        assertThat(hal.received.stream().filter(frame -> frame.equals(presenceFrame(none, error)))).hasSize(2);

        gil.send(join(empty, "\"gil\"", "\"" + "x".repeat(2000) + "\"")); // info over max-info-size (1K)
        gil.send(join(empty, "\"" + "y".repeat(300) + "\"", null)); // id over 255 characters
        gil.send("{\"command\":\"join\",\"identifier\":" + Json.encode(empty) + ",\"presence\":{\"id\":{}}}");
        gil.send(join(empty, "\"gil\"", null));
        gil.send(join(empty, "\"not-gil\"", null)); // another id on the same subscription
        gil.send(info(empty));
        gil.awaitFrame(presenceFrame(empty, "{\"type\":\"info\",\"total\":1,\"records\":[{\"id\":\"gil\"}]}"));
        assertThat(gil.received.stream().filter(frame -> frame.equals(presenceFrame(empty, error)))).hasSize(4);
        assertThat(gil.closeStatus).isNotDone();
        assertThat(hal.closeStatus).isNotDone();
    }

    @Test
    void presenceIsOneSetForEveryNodeAndItsEventsReachEveryNode() throws Exception {
        nodeTwo = DatabaseNodes.node("presence-node-two", () -> dataSource, SqlDialect.forDbKind(dbKind),
                CableConfigs.with("quarkus.cable.presence.ttl", "60s"));
        nodeTwo.start();
        String room = Channels.unique("nodes");
        String chat = chat(room);
        String stream = "chat:" + room;
        WsClient ivy = subscribed("jay", EXT, chat); // ivy's connection is jay's: she may join as jay
        LinkedBlockingQueue<PresenceEvent> onNodeOne = new LinkedBlockingQueue<>();
        Cancellable listening = presence.events(stream).subscribe().with(onNodeOne::add);

        // A session on node two joins: node one's client hears it, and node one's snapshot has it.
        assertThat(nodeTwo.presence().join(stream, "jay", "node-two-session-1", "{\"on\":2}")).isTrue();
        ivy.awaitFrame(presenceFrame(chat, "{\"type\":\"join\",\"id\":\"jay\",\"info\":{\"on\":2}}"));
        assertThat(onNodeOne.poll(60, TimeUnit.SECONDS))
                .isEqualTo(new PresenceEvent(stream, PresenceEvent.Type.JOIN, "jay", "{\"on\":2}"));
        // Node one's client joins with the same id: one id across nodes, no join; its info (none) is an update.
        ivy.send(join(chat, "\"jay\"", null));
        ivy.send(info(chat));
        ivy.awaitFrame(presenceFrame(chat, "{\"type\":\"info\",\"total\":1,\"records\":[{\"id\":\"jay\"}]}"));
        assertThat(presence.count(stream).toCompletableFuture().get(60, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(onNodeOne.poll(60, TimeUnit.SECONDS))
                .isEqualTo(new PresenceEvent(stream, PresenceEvent.Type.UPDATE, "jay", null));

        // Node two's session disconnects and reconnects within node two's TTL: invisible.
        nodeTwo.presence().disconnected("node-two-session-1");
        assertThat(nodeTwo.presence().join(stream, "kim", "node-two-session-2", null)).isTrue();
        ivy.send(leave(chat)); // jay's node-one session leaves; the disconnected one keeps jay for its TTL
        assertThat(onNodeOne.poll(60, TimeUnit.SECONDS))
                .isEqualTo(new PresenceEvent(stream, PresenceEvent.Type.JOIN, "kim", null));
        ivy.send(info(chat));
        ivy.awaitFrame(presenceFrame(chat, "{\"type\":\"info\",\"total\":2,\"records\":[{\"id\":\"jay\"},{\"id\":\"kim\"}]}"));

        // kim's explicit leave is at once; jay never left (a leave of it would have come before kim's).
        assertThat(nodeTwo.presence().leave(stream, "kim", "node-two-session-2")).isTrue();
        assertThat(onNodeOne.poll(60, TimeUnit.SECONDS))
                .isEqualTo(new PresenceEvent(stream, PresenceEvent.Type.LEAVE, "kim", null));
        assertThat(onNodeOne).isEmpty();
        listening.cancel();
    }

    @Test
    void aNodeThatDiesLeavesWithItsLease() throws Exception {
        // A node whose lease runs out (it died; here: stopped without handing its sessions to the TTL, as a killed
        // process) loses its sessions to the surviving node's reaper, which writes their leaves.
        nodeTwo = DatabaseNodes.node("presence-node-dead", () -> dataSource, SqlDialect.forDbKind(dbKind),
                CableConfigs.with("quarkus.cable.presence.ttl", "2s"));
        nodeTwo.start();
        String stream = "chat:" + Channels.unique("dead");
        LinkedBlockingQueue<PresenceEvent> onNodeOne = new LinkedBlockingQueue<>();
        Cancellable listening = presence.events(stream).subscribe().with(onNodeOne::add);
        assertThat(nodeTwo.presence().join(stream, "lou", "dead-node-session", null)).isTrue();
        assertThat(onNodeOne.poll(60, TimeUnit.SECONDS).type()).isEqualTo(PresenceEvent.Type.JOIN);
        // Kill its presence upkeep only: no renewal, no hand-over, like a process that vanished.
        nodeTwo.transport().presence().workers().forEach(worker -> worker.stop(10_000));
        assertThat(onNodeOne.poll(60, TimeUnit.SECONDS))
                .isEqualTo(new PresenceEvent(stream, PresenceEvent.Type.LEAVE, "lou", null));
        assertThat(presence.count(stream).toCompletableFuture().get(60, TimeUnit.SECONDS)).isZero();
        listening.cancel();
    }

    /**
     * The net under every front end's ordering: a session row of this node that the database holds as connected but
     * that no live connection of the node knows (what a front end that ended a session before its join committed left
     * behind, forever, before the sessions were ordered) is handed to the TTL at the node's next lease renewal, so its
     * id leaves. The orphan is made here by hand, beside a live session of the same id that then leaves.
     */
    @Test
    void aSessionRowNoLiveConnectionKnowsIsSweptAndItsIdLeaves() throws Exception {
        nodeTwo = DatabaseNodes.node("presence-node-sweeping", () -> dataSource, SqlDialect.forDbKind(dbKind),
                CableConfigs.with("quarkus.cable.presence.ttl", "2s"));
        nodeTwo.start();
        String stream = "chat:" + Channels.unique("sweep");
        LinkedBlockingQueue<PresenceEvent> onNodeOne = new LinkedBlockingQueue<>();
        Cancellable listening = presence.events(stream).subscribe().with(onNodeOne::add);
        assertThat(nodeTwo.presence().join(stream, "nia", "sweep-live-session", null)).isTrue();
        assertThat(onNodeOne.poll(60, TimeUnit.SECONDS).type()).isEqualTo(PresenceEvent.Type.JOIN);
        String node = single("SELECT node_id FROM cable_presence_sessions WHERE session_id = 'sweep-live-session'");
        try (Connection c = dataSource.getConnection();
                PreparedStatement orphan = c.prepareStatement("INSERT INTO cable_presence_sessions"
                        + " (channel_hash, presence_id, session_id, node_id, expires_at) VALUES (?, ?, ?, ?, NULL)")) {
            orphan.setLong(1, ChannelHash.of(stream));
            orphan.setString(2, "nia");
            orphan.setString(3, "sweep-orphan-session");
            orphan.setString(4, node);
            orphan.executeUpdate();
        }
        long sweptBefore = nodeTwo.stats().presenceSessionsSwept();
        // The live session leaves; the orphan keeps nia in the set until the sweep hands it to the TTL (2 s).
        nodeTwo.presence().leave(stream, "nia", "sweep-live-session");
        assertThat(onNodeOne.poll(60, TimeUnit.SECONDS))
                .isEqualTo(new PresenceEvent(stream, PresenceEvent.Type.LEAVE, "nia", null));
        assertThat(nodeTwo.stats().presenceSessionsSwept() - sweptBefore).isEqualTo(1);
        assertThat(presence.count(stream).toCompletableFuture().get(60, TimeUnit.SECONDS)).isZero();
        listening.cancel();
    }

    /**
     * A node paused for longer than the TTL finds, when it runs again, that a survivor ended its sessions (gave them
     * an end and removed its lease). It joins them again: its member is present again, and a node that heard the
     * leave hears the join after it.
     */
    @Test
    void aNodeThatLostItsLeaseJoinsItsSessionsAgain() throws Exception {
        nodeTwo = DatabaseNodes.node("presence-node-paused", () -> dataSource, SqlDialect.forDbKind(dbKind),
                CableConfigs.with("quarkus.cable.presence.ttl", "2s"));
        nodeTwo.start();
        String stream = "chat:" + Channels.unique("paused");
        LinkedBlockingQueue<PresenceEvent> onNodeOne = new LinkedBlockingQueue<>();
        Cancellable listening = presence.events(stream).subscribe().with(onNodeOne::add);
        assertThat(nodeTwo.presence().join(stream, "mia", "paused-node-session", null)).isTrue();
        assertThat(onNodeOne.poll(60, TimeUnit.SECONDS).type()).isEqualTo(PresenceEvent.Type.JOIN);
        String node = single("SELECT node_id FROM cable_presence_sessions WHERE session_id = 'paused-node-session'");

        // What a survivor's reaper does to a lapsed lease, done here at once: a real pause would race node two's
        // renewal, which keeps the lease alive whenever it runs first.
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ended = c.prepareStatement(
                    "UPDATE cable_presence_sessions SET expires_at = ? WHERE node_id = ?");
                    PreparedStatement lease = c.prepareStatement("DELETE FROM cable_presence_nodes WHERE node_id = ?")) {
                ended.setObject(1, LocalDateTime.now(ZoneOffset.UTC).minusMinutes(1));
                ended.setString(2, node);
                ended.executeUpdate();
                lease.setString(1, node);
                assertThat(lease.executeUpdate()).as("node two's lease").isEqualTo(1);
            }
            c.commit();
        }

        // Whether a reaper removed the rows first (a leave, then node two's join) or node two's renewal came first
        // (it joined its rows again before they were reaped: nothing to hear), mia ends up present, on a live row.
        await().atMost(Duration.ofSeconds(60)).until(() -> count("SELECT COUNT(*) FROM cable_presence_nodes"
                + " WHERE node_id = '" + node + "'") == 1
                && count("SELECT COUNT(*) FROM cable_presence_sessions WHERE node_id = '" + node
                        + "' AND expires_at IS NULL") == 1
                && count("SELECT COUNT(*) FROM cable_presence_sessions WHERE node_id = '" + node
                        + "' AND expires_at IS NOT NULL") == 0
                && presence.snapshot(stream).toCompletableFuture().get(60, TimeUnit.SECONDS).records().stream()
                        .anyMatch(record -> record.id().equals("mia")));
        PresenceEvent heard = onNodeOne.poll();
        if (heard != null) {
            assertThat(heard).isEqualTo(new PresenceEvent(stream, PresenceEvent.Type.LEAVE, "mia", null));
            assertThat(onNodeOne.poll(60, TimeUnit.SECONDS))
                    .isEqualTo(new PresenceEvent(stream, PresenceEvent.Type.JOIN, "mia", null));
        }
        listening.cancel();
    }

    private String single(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery(sql)) {
            assertThat(rows.next()).as(sql).isTrue();
            return rows.getString(1);
        }
    }

    private long count(String sql) throws SQLException {
        return Long.parseLong(single(sql));
    }

    /**
     * A row on the presence channel the cable did not write (SQL with the table's rights; the SQL broadcast refuses
     * the channel) whose event is not a join or leave of the cable's shape is dropped, not spliced into the presence
     * frames of the channel's subscribers, where it would close the frame's object and add its own
     * {@code "type":"disconnect","reconnect":false}. A real join after it still arrives; one reader hands the channel
     * over in id order, so the forged rows were read before it.
     */
    @Test
    void aForgedPresenceRowIsDroppedNotSplicedIntoFrames() throws Exception {
        String room = Channels.unique("forged");
        String chat = chat(room);
        String stream = "chat:" + room;
        WsClient bob = subscribed("bob", EXT, chat);
        for (String event : List.of("{\"type\":\"join\",\"id\":\"x\"},\"type\":\"disconnect\",\"reconnect\":false",
                "null,\"type\":\"disconnect\",\"reconnect\":false", "{\"type\":\"disconnect\",\"reconnect\":false}",
                "{\"type\":\"join\",\"id\":\"x\"} {}")) {
            engine.broadcastCommand(IdentityChannels.PRESENCE,
                    (stream.length() + ":" + stream + event).getBytes(java.nio.charset.StandardCharsets.UTF_8))
                    .toCompletableFuture().get(60, TimeUnit.SECONDS);
        }
        bob.send(join(chat, "\"bob\"", null));
        String bobJoined = presenceFrame(chat, "{\"type\":\"join\",\"id\":\"bob\"}");
        bob.awaitFrame(bobJoined);
        assertThat(presenceEvents(bob, chat)).containsExactly(bobJoined);
        assertThat(bob.received).noneMatch(frame -> frame.contains("disconnect"));
        assertThat(bob.closeStatus).isNotDone();
    }

    @Test
    void presenceChannelsAreTheCablesOwn() {
        assertThat(IdentityChannels.refused(IdentityChannels.PRESENCE, Map.of("user", "ann"))).isTrue();
        assertThatThrownBy(() -> cable.broadcast(IdentityChannels.PRESENCE, "x").toCompletableFuture().join())
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(CableException.InvalidMessage.class);
    }

    private WsClient subscribed(String user, String protocol, String identifier) throws Exception {
        WsClient client = WsClient.connect(vertx, base, "/cable?user=" + user, protocol);
        clients.add(client);
        client.send(new JsonObject().put("command", "subscribe").put("identifier", identifier).encode());
        client.awaitFrame(confirm(identifier));
        return client;
    }

    private static List<String> presenceEvents(WsClient client, String identifier) {
        String start = "{\"type\":\"presence\",\"identifier\":" + Json.encode(identifier) + ",\"message\":{\"type\":\"";
        return client.received.stream()
                .filter(frame -> frame.startsWith(start + "join") || frame.startsWith(start + "leave")).toList();
    }

    private static String chat(String room) {
        return new JsonObject().put("channel", "ChatChannel").put("room", room).encode();
    }

    private static String confirm(String identifier) {
        return "{\"identifier\":" + Json.encode(identifier) + ",\"type\":\"confirm_subscription\"}";
    }

    private static String presenceFrame(String identifier, String messageJson) {
        return "{\"type\":\"presence\",\"identifier\":" + Json.encode(identifier) + ",\"message\":" + messageJson + "}";
    }

    /** A presence join command ({@code infoJson} null: none), as @anycable/core sends it. */
    public static String join(String identifier, String idJson, String infoJson) {
        return "{\"command\":\"join\",\"identifier\":" + Json.encode(identifier) + ",\"presence\":{\"id\":" + idJson
                + (infoJson == null ? "" : ",\"info\":" + infoJson) + "}}";
    }

    private static String leave(String identifier) {
        return "{\"command\":\"leave\",\"identifier\":" + Json.encode(identifier) + "}";
    }

    private static String info(String identifier) {
        return "{\"command\":\"presence\",\"identifier\":" + Json.encode(identifier) + ",\"data\":{}}";
    }

    private static String unsubscribe(String identifier) {
        return "{\"command\":\"unsubscribe\",\"identifier\":" + Json.encode(identifier) + "}";
    }

    private static String perform(String identifier, String action) {
        return new JsonObject().put("command", "message").put("identifier", identifier)
                .put("data", new JsonObject().put("action", action).encode()).encode();
    }
}
