package io.quarkiverse.cable.it.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.it.WsClient;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * A PostgreSQL primary with synchronous replication whose standby is away (topology lab, section 1.2): every COMMIT
 * waits without error and without end, {@code statement_timeout} does not bound it, and the waiting commit holds the
 * shard row other nodes' writers queue on. The writer's {@code commit-timeout} must bound it: the broadcasts fail
 * with {@code CommitUnknown} (HTTP 504 here), not success or failure, and no node waits much longer than that. The
 * same deadline bounds presence transactions: a join is answered with the presence error frame, not never.
 */
class SyncReplicationIT {

    private static final TopologyScript PG_SYNC = new TopologyScript("pg-sync");
    private static final int PORT = Integer.getInteger("cable.topology.pg-sync.port", 5447);
    private static final String URL = "jdbc:postgresql://127.0.0.1:" + PORT + "/cable_sync";
    private static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(3);

    private final List<CableNode> nodes = new ArrayList<>();
    private final List<WsClient> clients = new ArrayList<>();

    @BeforeAll
    static void startPrimary() throws Exception {
        assumeTrue(CableNode.dbKind().equals("postgresql"), "a PostgreSQL case (-Pdb-postgresql)");
        PG_SYNC.run("setup", 120);
    }

    @AfterAll
    static void stopPrimary() throws Exception {
        if (CableNode.dbKind().equals("postgresql")) {
            PG_SYNC.run("stop", 90);
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        // Waiting commits would otherwise keep the nodes from stopping.
        PG_SYNC.run("standby-back", 60);
        for (WsClient client : clients) {
            client.close();
        }
        CableNode.closeAll(nodes);
    }

    @Test
    void aCommitWaitingForAMissingStandbyEndsAsCommitUnknownWithinTheDeadline() throws Exception {
        Map<String, String> urls = new LinkedHashMap<>();
        urls.put("sync-a", URL);
        urls.put("sync-b", URL);
        Map<String, String> config = Map.of("quarkus.cable.writer.commit-timeout", COMMIT_TIMEOUT.toMillis() + "ms");
        List<CableNode> both = Nodes.start(nodes, urls, config);
        CableNode a = both.get(0);
        CableNode b = both.get(1);
        String room = "sync-" + UUID.randomUUID();
        WsClient onB = WsClient.connect(null, b.base(), "/rooms/" + room).awaitFrame("ready");
        clients.add(onB);
        assertThat(a.broadcast("room:" + room, "replicated").statusCode()).isEqualTo(202);
        onB.awaitFrame("replicated");

        PG_SYNC.run("standby-away", 60);
        // Both nodes at once: B's writer queues behind A's waiting commit on the shard row, then waits itself.
        long started = System.nanoTime();
        CompletableFuture<Answer> fromA = broadcast(a, room, "unknown-a", started);
        CompletableFuture<Answer> fromB = broadcast(b, room, "unknown-b", started);
        // Without a deadline of the cable's own (the code before commit-timeout) neither ever answers.
        Answer answerA = fromA.get(120, TimeUnit.SECONDS);
        Answer answerB = fromB.get(120, TimeUnit.SECONDS);
        System.out.printf("[topology] sync standby away: node A answered %d after %d ms, node B %d after %d ms"
                + " (commit-timeout %d ms)%n", answerA.response.statusCode(), answerA.after.toMillis(),
                answerB.response.statusCode(), answerB.after.toMillis(), COMMIT_TIMEOUT.toMillis());

        assertThat(answerA.response.statusCode()).as(answerA.response.body()).isEqualTo(504);
        assertThat(answerA.response.body()).contains("commit-timeout");
        assertThat(answerB.response.statusCode()).as(answerB.response.body()).isEqualTo(504);
        // Each node waits at most its own deadline for its commit, plus, for the one that queued on the shard row,
        // the other's; the slack is for a loaded machine.
        Duration slack = Duration.ofSeconds(8);
        assertThat(answerA.after).as("node A answered").isLessThan(COMMIT_TIMEOUT.multipliedBy(2).plus(slack));
        assertThat(answerB.after).as("node B answered").isLessThan(COMMIT_TIMEOUT.multipliedBy(2).plus(slack));
        // PostgreSQL keeps a cancelled synchronous commit locally: the rows are visible, hence delivered. That is
        // why the answer is "unknown" and not a failure.
        await().atMost(Duration.ofSeconds(60))
                .until(() -> onB.received.contains("unknown-a") && onB.received.contains("unknown-b"));

        PG_SYNC.run("standby-back", 60);
        assertThat(a.broadcast("room:" + room, "back").statusCode()).isEqualTo(202);
        onB.awaitFrame("back");
        assertThat(onB.received).containsOnlyOnce("replicated", "unknown-a", "unknown-b", "back");
    }

    @Test
    void aPresenceJoinWaitingForAMissingStandbyIsAnsweredWithAnErrorWithinTheDeadline() throws Exception {
        Map<String, String> config = Map.of("quarkus.cable.writer.commit-timeout", COMMIT_TIMEOUT.toMillis() + "ms");
        CableNode node = Nodes.start(nodes, Map.of("sync-presence", URL), config).get(0);
        String room = new JsonObject().put("channel", "ChatChannel").put("room", "sync-" + UUID.randomUUID()).encode();
        WsClient ann = subscribed(node, "ann", room);
        WsClient bob = subscribed(node, "bob", room);
        ann.send(join(room, "ann")); // the node's lease and a member, while the standby is there
        bob.awaitFrame(presence(room, "{\"type\":\"join\",\"id\":\"ann\"}"));

        PG_SYNC.run("standby-away", 60);
        long started = System.nanoTime();
        bob.send(join(room, "bob"));
        // Without a deadline on presence commits (the code before it) the join is never answered: the client's
        // presence.join() hangs, and so does every later command of the connection.
        bob.awaitFrame(presence(room, "{\"type\":\"error\",\"total\":0}"));
        Duration answered = Duration.ofNanos(System.nanoTime() - started);
        System.out.printf("[topology] sync standby away: a presence join answered with an error after %d ms"
                + " (commit-timeout %d ms)%n", answered.toMillis(), COMMIT_TIMEOUT.toMillis());
        assertThat(answered).as("the join answered").isLessThan(COMMIT_TIMEOUT.multipliedBy(2).plus(Duration.ofSeconds(8)));

        PG_SYNC.run("standby-back", 60);
        // The connection went on, and the node's presence with it: the set answers, ann is in it.
        bob.send(new JsonObject().put("command", "presence").put("identifier", room).put("data", new JsonObject())
                .encode());
        await().atMost(Duration.ofSeconds(60)).until(() -> bob.received.stream()
                .anyMatch(frame -> frame.contains("\"type\":\"info\"") && frame.contains("\"ann\"")));
    }

    private WsClient subscribed(CableNode node, String user, String identifier) throws Exception {
        WsClient client = WsClient.connect(null, node.base(), "/cable?user=" + user, "actioncable-v1-ext-json");
        clients.add(client);
        client.send(new JsonObject().put("command", "subscribe").put("identifier", identifier).encode());
        client.awaitFrame("{\"identifier\":" + Json.encode(identifier) + ",\"type\":\"confirm_subscription\"}");
        return client;
    }

    private static String join(String identifier, String id) {
        return new JsonObject().put("command", "join").put("identifier", identifier)
                .put("presence", new JsonObject().put("id", id)).encode();
    }

    private static String presence(String identifier, String messageJson) {
        return "{\"type\":\"presence\",\"identifier\":" + Json.encode(identifier) + ",\"message\":" + messageJson + "}";
    }

    /** A node's answer to a broadcast, and how long after the start of the case it came. */
    private record Answer(HttpResponse<String> response, Duration after) {
    }

    private static CompletableFuture<Answer> broadcast(CableNode node, String room, String payload, long started) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                HttpResponse<String> response = node.broadcast("room:" + room, payload);
                return new Answer(response, Duration.ofNanos(System.nanoTime() - started));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
