package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Jdbc;
import io.quarkiverse.cable.runtime.database.MessageStore;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The writer's batch statements on each database (see the writer in the docs): ids consecutive, channel positions
 * gapless and in id order, channel rows agreeing with their messages. Covered in one batch: more channels than one
 * IN list holds (new and stored ones), more rows than one multi-row INSERT holds, payloads that split an INSERT by
 * size; then a retry whose receipt shows the batch stored, an application-transaction batch continuing the positions,
 * and the number of statements a batch takes (the round trips the write path was cut to).
 */
@QuarkusTest
public class WriterBatchTest {

    private static final int CHANNELS = 300;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void batchesKeepIdsAndPositionsConsistent() throws Exception {
        MessageStore store = new MessageStore(dataSource, SqlDialect.forDbKind(dbKind));
        String prefix = Channels.unique("batch");
        String writer = UUID.randomUUID().toString();
        List<String> channels = new ArrayList<>();
        for (int i = 0; i < CHANNELS; i++) {
            channels.add(prefix + ":" + i);
        }
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);

            // Batch 1: half of the channels get a row.
            List<OutgoingMessage> first = new ArrayList<>();
            for (int i = 0; i < CHANNELS / 2; i++) {
                first.add(message(channels.get(i), "a" + i));
            }
            long firstLast = store.writeWithReceipt(connection, first, Instant.now(), writer, 1, false);
            connection.commit();

            // Batch 2: every channel twice (stored and new ones interleaved), and two large payloads.
            List<OutgoingMessage> second = new ArrayList<>();
            for (int round = 0; round < 2; round++) {
                for (int i = CHANNELS - 1; i >= 0; i--) {
                    second.add(message(channels.get(i), "b" + round + ":" + i));
                }
            }
            byte[] large = new byte[700 * 1024];
            second.add(1, new OutgoingMessage(channels.get(7), ChannelHash.of(channels.get(7)), large, true,
                    System.nanoTime(), new CompletableFuture<>()));
            second.add(400, new OutgoingMessage(channels.get(7), ChannelHash.of(channels.get(7)), large, true,
                    System.nanoTime(), new CompletableFuture<>()));
            long secondLast = store.writeWithReceipt(connection, second, Instant.now(), writer, 2, false);
            connection.commit();
            assertThat(secondLast).isGreaterThanOrEqualTo(firstLast + second.size());

            // A retry of batch 2 finds its receipt: nothing is written twice.
            assertThat(store.writeWithReceipt(connection, second, Instant.now(), writer, 2, true))
                    .isEqualTo(MessageStore.ALREADY_COMMITTED);
            connection.rollback();

            // An application transaction's batch (no receipt) continues the positions.
            List<OutgoingMessage> third = List.of(message(channels.get(0), "t0"), message(channels.get(299), "t1"),
                    message(channels.get(0), "t2"));
            long thirdLast = store.writeInTransaction(connection, third, Instant.now());
            connection.commit();
            assertThat(thirdLast).isGreaterThanOrEqualTo(secondLast + third.size());

            Map<String, List<long[]>> rows = storedRows(connection, prefix);
            assertThat(rows).hasSize(CHANNELS);
            int total = 0;
            for (String channel : channels) {
                List<long[]> idAndPosition = rows.get(channel);
                for (int i = 0; i < idAndPosition.size(); i++) {
                    assertThat(idAndPosition.get(i)[1]).as("position %d of %s in id order", i, channel)
                            .isEqualTo(i + 1);
                }
                total += idAndPosition.size();
                long[] channelRow = channelRow(connection, channel);
                assertThat(channelRow[0]).as("last_position of %s", channel).isEqualTo(idAndPosition.size());
                assertThat(channelRow[1]).as("last_message_id of %s", channel)
                        .isEqualTo(idAndPosition.get(idAndPosition.size() - 1)[0]);
            }
            assertThat(total).isEqualTo(first.size() + second.size() + third.size());
            assertThat(rows.get(channels.get(7))).hasSize(5);
            assertThat(rows.get(channels.get(0))).hasSize(5);
            assertThat(rows.get(channels.get(CHANNELS - 1))).hasSize(3);

            // Each batch's ids are consecutive and end at the id returned.
            assertConsecutive(connection, prefix, firstLast - first.size() + 1, firstLast, first.size());
            assertConsecutive(connection, prefix, secondLast - second.size() + 1, secondLast, second.size());
            assertConsecutive(connection, prefix, thirdLast - third.size() + 1, thirdLast, third.size());
        }
    }

    @Test
    void aBatchTakesFewStatements() throws Exception {
        MessageStore store = new MessageStore(dataSource, SqlDialect.forDbKind(dbKind));
        String prefix = Channels.unique("statements");
        String writer = UUID.randomUUID().toString();
        try (Connection real = dataSource.getConnection()) {
            real.setAutoCommit(false);
            AtomicInteger executed = new AtomicInteger();
            List<String> executions = new CopyOnWriteArrayList<>();
            Connection counting = counting(real, executed, executions);
            for (int batch = 1; batch <= 2; batch++) {
                List<OutgoingMessage> messages = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    messages.add(message(prefix + ":" + (i % 10), "m" + i));
                }
                executed.set(0);
                executions.clear();
                store.writeWithReceipt(counting, messages, Instant.now(), writer, batch, false);
                real.commit();
            }
            // The second batch: the writer's receipt row and the channels exist, as in steady operation.
            int expected = switch (dbKind) {
                case "postgresql" -> 2;
                case "mariadb", "mysql" -> 4;
                default -> 6; // H2: one portable statement per step
            };
            assertThat(executed.get()).as("statements of a 200-row batch on %s, the commit not counted", dbKind)
                    .isEqualTo(expected);
            String insert = "INSERT INTO cable_messages ";
            if (dbKind.equals("mariadb")) {
                // MariaDB Connector/J: one JDBC batch of a one-row INSERT, sent as one bulk command.
                assertThat(executions).as("MariaDB's message insert").contains("executeBatch " + insert);
            } else if (dbKind.equals("mysql")) {
                // MySQL Connector/J would send a batch row by row: multi-row INSERT statements instead.
                assertThat(executions).as("MySQL Connector/J's message insert").contains("executeUpdate " + insert)
                        .noneMatch(execution -> execution.startsWith("executeBatch"));
            }
        }
    }

    /** Counts executions; {@code executions} gets each one's method and the start of its SQL (27 characters). */
    private static Connection counting(Connection real, AtomicInteger executed, List<String> executions) {
        return (Connection) Proxy.newProxyInstance(WriterBatchTest.class.getClassLoader(),
                new Class<?>[] { Connection.class }, (proxy, method, args) -> {
                    Object result = Jdbc.call(real, method, args);
                    if (method.getName().equals("prepareStatement")) {
                        PreparedStatement statement = (PreparedStatement) result;
                        String sql = (String) args[0];
                        return Proxy.newProxyInstance(WriterBatchTest.class.getClassLoader(),
                                new Class<?>[] { PreparedStatement.class }, (p, m, a) -> {
                                    if (m.getName().startsWith("execute")) {
                                        executed.incrementAndGet();
                                        executions.add(m.getName() + " " + sql.substring(0, Math.min(27, sql.length())));
                                    }
                                    return Jdbc.call(statement, m, a);
                                });
                    }
                    return result;
                });
    }

    private static OutgoingMessage message(String channel, String text) {
        return new OutgoingMessage(channel, ChannelHash.of(channel), text.getBytes(), false, System.nanoTime(),
                new CompletableFuture<>());
    }

    /** Per channel of the test: (id, stream_position) of its messages in id order. */
    private static Map<String, List<long[]>> storedRows(Connection connection, String prefix) throws SQLException {
        Map<String, List<long[]>> rows = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT channel, id, stream_position FROM cable_messages WHERE channel LIKE ? ORDER BY id")) {
            select.setString(1, prefix + ":%");
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    rows.computeIfAbsent(result.getString(1), c -> new ArrayList<>())
                            .add(new long[] { result.getLong(2), result.getLong(3) });
                }
            }
        }
        connection.commit();
        return rows;
    }

    private static long[] channelRow(Connection connection, String channel) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT last_position, last_message_id FROM cable_channels WHERE channel_hash = ?")) {
            select.setLong(1, ChannelHash.of(channel));
            try (ResultSet result = select.executeQuery()) {
                assertThat(result.next()).as("channel row of %s", channel).isTrue();
                return new long[] { result.getLong(1), result.getLong(2) };
            }
        } finally {
            connection.commit();
        }
    }

    private static void assertConsecutive(Connection connection, String prefix, long from, long to, int count)
            throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT COUNT(*), MIN(id), MAX(id) FROM cable_messages WHERE channel LIKE ? AND id BETWEEN ? AND ?")) {
            select.setString(1, prefix + ":%");
            select.setLong(2, from);
            select.setLong(3, to);
            try (ResultSet result = select.executeQuery()) {
                result.next();
                assertThat(result.getLong(1)).as("rows with ids %d..%d", from, to).isEqualTo(count);
            }
        } finally {
            connection.commit();
        }
    }
}
