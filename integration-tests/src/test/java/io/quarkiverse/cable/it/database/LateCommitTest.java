package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.runtime.database.MessageStore;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Guarantee 1: a broadcast whose transaction commits late is not lost. One writer's transaction ("node B", the same
 * code path as the cable's writer) is held open; the cable's own writer then broadcasts a second message, which would
 * get the higher id. The second writer must wait for the first to commit, and the subscriber gets both, once each,
 * in commit order.
 */
@QuarkusTest
public class LateCommitTest {

    @Inject
    Cable cable;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void lateCommittingBroadcastIsDeliveredExactlyOnce() throws Exception {
        String channel = Channels.unique("late");
        Collector collector = new Collector();
        MessageStore store = new MessageStore(dataSource, SqlDialect.forDbKind(dbKind));
        try (Subscription subscription = cable.subscribe(channel, collector);
                Connection held = dataSource.getConnection()) {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);

            held.setAutoCommit(false);
            OutgoingMessage early = new OutgoingMessage(channel, ChannelHash.of(channel), "early".getBytes(), false,
                    System.nanoTime(), new CompletableFuture<>());
            // Written as the writer writes (with a receipt), by a writer id of the test's own.
            long earlyId = store.writeWithReceipt(held, List.of(early), Instant.now(), UUID.randomUUID().toString(), 1,
                    false);

            CompletableFuture<Void> late = cable.broadcast(channel, "late").toCompletableFuture();
            awaitWriterBlockedOnLock();
            assertThat(late).as("a higher id must not commit while a lower one is open").isNotDone();
            assertThat(collector.messages).isEmpty();

            held.commit();
            late.get(30, TimeUnit.SECONDS);
            collector.awaitCount(2);
            assertThat(collector.texts()).containsExactly("early", "late");
            assertThat(collector.messages.get(0).id()).isEqualTo(earlyId);
            assertThat(collector.messages.get(1).id()).isGreaterThan(earlyId);

            // Nothing more arrives: a following broadcast is the next and last message.
            cable.broadcast(channel, "after").toCompletableFuture().get(30, TimeUnit.SECONDS);
            collector.awaitCount(3);
            assertThat(collector.messages).extracting(CableMessage::text).containsExactly("early", "late", "after");
        }
    }

    /** Waits until the database reports a session waiting for a row lock: the cable's writer behind the held one. */
    private void awaitWriterBlockedOnLock() {
        String query = switch (dbKind) {
            case "postgresql" -> "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    + " AND query LIKE '%cable_shards%'";
            case "mariadb", "mysql" -> "SELECT count(*) FROM information_schema.innodb_trx"
                    + " WHERE trx_state = 'LOCK WAIT'";
            default -> "SELECT count(*) FROM information_schema.sessions WHERE blocker_id IS NOT NULL";
        };
        await().atMost(Collector.TIMEOUT).until(() -> count(query) > 0);
    }

    private long count(String query) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(query)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
