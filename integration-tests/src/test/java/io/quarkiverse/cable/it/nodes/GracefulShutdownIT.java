package io.quarkiverse.cable.it.nodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.Account;
import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.it.WsClient;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * A node stopped with SIGTERM right after queueing broadcasts it has not committed yet still stores every one of them
 * before it exits: another node's WebSocket client receives all of them, in order, and the table holds all of them.
 * An Action Cable client of the stopping node is told {@code disconnect} with reason {@code server_restart} and
 * {@code reconnect: true}, so it reconnects to another node.
 * The stopping node writes one broadcast per transaction ({@code writer.batch-size=1}) so most are still queued when
 * the signal arrives.
 */
public class GracefulShutdownIT {

    private static final int COUNT = 1000;

    @Test
    void queuedBroadcastsAreCommittedBeforeExit() throws Exception {
        assumeTrue(CableNode.sharedDatabase(), "needs a second node on a shared database server");
        List<CableNode> nodes = new ArrayList<>();
        Vertx vertx = Vertx.vertx();
        try {
            CableNode stopping = CableNode.start("shutdown-a", Map.of("quarkus.cable.writer.batch-size", "1"));
            nodes.add(stopping);
            CableNode watching = CableNode.start("shutdown-b", Map.of());
            nodes.add(watching);
            String room = "shutdown-" + UUID.randomUUID();
            try (WsClient client = WsClient.connect(vertx, watching.base(), "/rooms/" + room).awaitFrame("ready");
                    WsClient actionCable = WsClient.connect(vertx, stopping.base(), "/cable", "actioncable-v1-json")) {
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> actionCable.received.stream().anyMatch(f -> f.contains("\"welcome\"")));
                int accepted = stopping.enqueue("room:" + room, "a", COUNT);
                long storedAtSignal = countStored("room:" + room);
                int exit = stopping.stop();
                long storedAtExit = countStored("room:" + room);
                System.out.printf("GracefulShutdownIT (%s): %d queued, %d stored when SIGTERM was sent, %d at exit"
                        + " (exit code %d)%n", CableNode.dbKind(), accepted, storedAtSignal, storedAtExit, exit);
                assertThat(accepted).isEqualTo(COUNT);
                assertThat(storedAtExit).as("every queued broadcast is stored before the process exits")
                        .isEqualTo(COUNT);
                assertThat(actionCable.received).as("Action Cable clients are told to reconnect elsewhere")
                        .anySatisfy(frame -> assertThat(new JsonObject(frame)).isEqualTo(new JsonObject()
                                .put("type", "disconnect").put("reason", "server_restart").put("reconnect", true)));

                await().atMost(Duration.ofSeconds(120)).until(() -> client.received.size() >= COUNT + 1);
                Set<String> queued = IntStream.range(0, COUNT).mapToObj(i -> "a|" + i).collect(Collectors.toSet());
                Account account = new Account();
                account.check("watching node", client.received, queued);
                assertThat(account.clean()).as(account.toString()).isTrue();
                assertThat(client.received.subList(1, COUNT + 1))
                        .containsExactlyElementsOf(IntStream.range(0, COUNT).mapToObj(i -> "a|" + i).toList());
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            CableNode.closeAll(nodes);
        }
    }

    private static long countStored(String channel) throws Exception {
        try (Connection connection = DriverManager.getConnection(CableNode.dbUrl(), CableNode.dbUser(),
                CableNode.dbPassword());
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT COUNT(*) FROM cable_messages WHERE channel = ?")) {
            statement.setString(1, channel);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
