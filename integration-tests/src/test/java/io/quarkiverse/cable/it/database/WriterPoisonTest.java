package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.CableConfigs;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.database.BatchWriter;
import io.quarkiverse.cable.runtime.database.MessageStore;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkiverse.cable.spi.Failure;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 25, item 4: one broadcast the database refuses fails alone, at once, and the rest of its batch is written.
 * <p>
 * The poison passes every check the cable makes before queueing (a valid channel, a small payload) and is refused by
 * the database itself: the test adds a CHECK constraint on {@code cable_messages} forbidding its channel, a rule the
 * cable cannot know. The same SQL works on H2, PostgreSQL and MariaDB, and the refusal is the database's own
 * integrity-constraint error (SQLState 23513 on H2 and PostgreSQL; 23000 with vendor code 4025 on MariaDB), the class
 * of error a real schema change or trigger would raise. Payloads are bytes on every database, so no payload value
 * is refused by its column.
 * <p>
 * A writer of its own (on the application's datasource, retry window one hour) is given all 200 broadcasts before it
 * starts, so they are exactly one batch. The application's cable (its poller reads every writer's rows) delivers the
 * 199 others in order; the poison fails with the database's error well inside the bounded wait, which is far below
 * the retry window: it was not retried (the writer's retry counter did not move either).
 */
@QuarkusTest
public class WriterPoisonTest {

    private static final int BATCH = 200;
    private static final int POISON_AT = 117;

    @Inject
    Cable cable;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void aRefusedRowFailsAloneAndTheRestOfItsBatchIsDelivered() throws Exception {
        String healthy = Channels.unique("poison-healthy");
        String poison = Channels.unique("poison-refused");
        String constraint = "cable_test_poison_" + Long.toHexString(System.nanoTime());
        Collector collector = new Collector();
        addConstraint(constraint, poison);
        BatchWriter writer = null;
        try (Subscription subscription = cable.subscribe(healthy, collector)) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            CableStats stats = new CableStats();
            writer = new BatchWriter(new MessageStore(dataSource, SqlDialect.forDbKind(dbKind)),
                    CableConfigs.with("quarkus.cable.writer.retry-timeout", "1h",
                            "quarkus.cable.writer.batch-size", String.valueOf(BATCH)),
                    stats, rows -> {
                    });
            List<CompletableFuture<Void>> healthyStages = new ArrayList<>();
            CompletableFuture<Void> poisonStage = null;
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < BATCH; i++) {
                if (i == POISON_AT) {
                    poisonStage = writer.submit(message(poison, "poison"));
                } else {
                    String text = "m" + i;
                    expected.add(text);
                    healthyStages.add(writer.submit(message(healthy, text)));
                }
            }
            assertThat(writer.queueDepth()).as("all queued before the writer starts: one batch").isEqualTo(BATCH);
            writer.start("poison-test");

            CompletableFuture<Void> refused = poisonStage;
            assertThatThrownBy(() -> refused.get(60, TimeUnit.SECONDS))
                    .as("failed at once, not after the one-hour retry window")
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(CableException.StorageFailed.class)
                    .hasMessageContaining("refused the broadcast on '" + poison + "'")
                    .hasMessageContaining("not retried");
            for (CompletableFuture<Void> stage : healthyStages) {
                stage.get(60, TimeUnit.SECONDS);
            }
            assertThat(collector.awaitCount(BATCH - 1).messages).extracting(CableMessage::text)
                    .containsExactlyElementsOf(expected);
            assertThat(stats.failures(Failure.WRITE_RETRY)).as("no retry").isZero();
            assertThat(stats.committed()).isEqualTo(BATCH - 1);
        } finally {
            if (writer != null) {
                writer.stop(30_000);
            }
            dropConstraint(constraint);
        }
    }

    private static OutgoingMessage message(String channel, String text) {
        return new OutgoingMessage(channel, ChannelHash.of(channel), text.getBytes(StandardCharsets.UTF_8), false,
                System.nanoTime(), new CompletableFuture<>());
    }

    private void addConstraint(String name, String channel) throws SQLException {
        execute("ALTER TABLE cable_messages ADD CONSTRAINT " + name + " CHECK (channel <> '" + channel + "')");
    }

    private void dropConstraint(String name) throws SQLException {
        execute("ALTER TABLE cable_messages DROP CONSTRAINT " + name);
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
