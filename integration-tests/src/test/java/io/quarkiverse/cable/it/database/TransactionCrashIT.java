package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.it.WsClient;
import io.vertx.core.Vertx;

/**
 * A node that dies right after the commit of a transaction that saved data and broadcast loses nothing: the node's
 * JVM halts the moment the commit returns (no shutdown hooks, no cable thread runs afterwards, as under SIGKILL), and
 * the subscriber on the other node receives every broadcast of that transaction, once, in order. PostgreSQL and
 * MariaDB only (two processes share the database).
 */
public class TransactionCrashIT {

    @Test
    void broadcastsOfACommittedTransactionSurviveTheNodeDyingRightAfterTheCommit() throws Exception {
        assumeTrue(CableNode.sharedDatabase(), "nodes need a shared database server (-Pdb-postgresql or -Pdb-mariadb)");
        Vertx vertx = Vertx.vertx();
        try (CableNode survivor = CableNode.start("tx-survivor", Map.of());
                CableNode crashing = CableNode.start("tx-crashing", Map.of())) {
            String room = "txcrash-" + UUID.randomUUID();
            String channel = "room:" + room;
            try (WsClient client = WsClient.connect(vertx, survivor.base(), "/rooms/" + room).awaitFrame("ready")) {
                try {
                    HttpResponse<String> response = CableNode.HTTP.send(HttpRequest
                            .newBuilder(crashing.base().resolve("tx-crash/" + channel))
                            .timeout(Duration.ofSeconds(120)).header("Content-Type", "text/plain")
                            .POST(HttpRequest.BodyPublishers.ofString("one,two,three")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    throw new AssertionError("the node answered instead of dying: " + response.statusCode() + " "
                            + response.body());
                } catch (IOException expected) {
                    // The JVM halted before answering.
                }
                assertThat(crashing.process.waitFor(60, TimeUnit.SECONDS)).as("crashing node exited").isTrue();
                assertThat(crashing.process.exitValue()).as("halted after the commit:%n%s", crashing.logTail())
                        .isEqualTo(137);
                assertThat(committedItems(channel)).as("the transaction committed its items").isEqualTo(3);

                client.awaitFrames(4);
                assertThat(client.received).containsExactly("ready", "one", "two", "three");
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    private static long committedItems(String channel) throws Exception {
        try (Connection connection = DriverManager.getConnection(CableNode.dbUrl(), CableNode.dbUser(),
                CableNode.dbPassword());
                PreparedStatement select = connection
                        .prepareStatement("SELECT COUNT(*) FROM todo_items WHERE title LIKE ?")) {
            select.setString(1, channel + "|%");
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
