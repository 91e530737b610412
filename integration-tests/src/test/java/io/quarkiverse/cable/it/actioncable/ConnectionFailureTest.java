package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Worker;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The writer and the poller survive their database connections being killed (Solid Cable #71/#74/#81): later
 * broadcasts are stored and delivered, exactly once and in order.
 */
@QuarkusTest
public class ConnectionFailureTest {

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @ConfigProperty(name = "quarkus.datasource.username")
    String username;

    @ConfigProperty(name = "quarkus.datasource.password")
    Optional<String> password;

    @Test
    void recoversAfterEveryConnectionIsKilled() throws Exception {
        assumeTrue(!dbKind.equals("h2"), "embedded H2 has no server connections to kill");
        String channel = Channels.unique("killed");
        Collector collector = new Collector();
        try (Subscription subscription = cable.subscribe(channel, collector)) {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            broadcastAll(channel, 0, 50);
            collector.awaitCount(50);

            // The writer is idle here (every broadcast above is committed), so no commit is in flight when the
            // connections die.
            int killed = killApplicationConnections();
            assertThat(killed).isPositive();

            broadcastAll(channel, 50, 200);
            collector.awaitCount(200);
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                expected.add("m" + i);
            }
            assertThat(collector.texts()).containsExactlyElementsOf(expected);
            // Writer, poller, trimmer and presence upkeep, plus the wake-up's threads (PostgreSQL: the doorbell
            // listener, whose own connection was killed too, and the ringer; MariaDB/MySQL: the probe).
            assertThat(engine.transport().status().workers()).as("writer, poller, trimmer, presence and wake-up survived")
                    .hasSize(4 + engine.transport().status().wakeup().workers().size())
                    .allMatch(Worker::isAlive);
        }
    }

    private void broadcastAll(String channel, int from, int to) throws Exception {
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        for (int i = from; i < to; i++) {
            commits.add(cable.broadcast(channel, "m" + i).toCompletableFuture());
        }
        CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    }

    /**
     * Kills every server session on the test database from a connection outside the pool, so the pool's idle
     * connections, the writer's and the poller's all die.
     */
    private int killApplicationConnections() throws Exception {
        try (Connection connection = DriverManager.getConnection(url, username, password.orElse(""));
                Statement statement = connection.createStatement()) {
            if (dbKind.equals("postgresql")) {
                try (ResultSet rows = statement.executeQuery("SELECT count(pg_terminate_backend(pid))"
                        + " FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")) {
                    rows.next();
                    return rows.getInt(1);
                }
            }
            List<Long> ids = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery("SELECT id FROM information_schema.processlist"
                    + " WHERE db = DATABASE() AND id <> CONNECTION_ID()")) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
            for (long id : ids) {
                statement.execute("KILL CONNECTION " + id);
            }
            return ids.size();
        }
    }
}
