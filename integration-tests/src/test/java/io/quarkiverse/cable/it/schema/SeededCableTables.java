package io.quarkiverse.cable.it.schema;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Map;

import io.quarkiverse.cable.runtime.database.SchemaManager;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkiverse.cable.spi.Epochs;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Before the application starts: a fresh database with the cable's tables (its own DDL) holding one stored message,
 * written as the writer does (id from the allocator row, the channel's row at position 1). The tables' description
 * is kept in a system property, {@code cable.it.seeded-schema.<name>}, for the test to compare after the start.
 * Init arguments: {@code name}, the database's name; {@code app-tables=true} also creates the application's own
 * to-do table, for Hibernate's {@code validate}.
 */
public class SeededCableTables implements QuarkusTestResourceLifecycleManager {

    static final String CHANNEL = "seeded:history";
    static final String PAYLOAD = "stored before the start";

    private String name;
    private boolean appTables;
    private FreshDatabase database;

    @Override
    public void init(Map<String, String> initArgs) {
        name = initArgs.get("name");
        appTables = Boolean.parseBoolean(initArgs.getOrDefault("app-tables", "false"));
    }

    static String describedBefore(String name) {
        return System.getProperty("cable.it.seeded-schema." + name);
    }

    @Override
    public Map<String, String> start() {
        try {
            database = new FreshDatabase(name);
            try (Connection connection = database.connect()) {
                new SchemaManager(SqlDialect.forDbKind(database.kind)).update(connection);
                connection.setAutoCommit(false);
                long id;
                try (Statement statement = connection.createStatement()) {
                    statement.executeUpdate("UPDATE cable_shards SET last_id = last_id + 1 WHERE shard = 0");
                    try (ResultSet row = statement.executeQuery("SELECT last_id FROM cable_shards WHERE shard = 0")) {
                        row.next();
                        id = row.getLong(1);
                    }
                }
                Timestamp now = Timestamp.valueOf(LocalDateTime.now(ZoneOffset.UTC));
                long hash = ChannelHash.of(CHANNEL);
                try (PreparedStatement channel = connection.prepareStatement("INSERT INTO cable_channels (channel_hash,"
                        + " channel, epoch, last_position, last_message_id, created_at, updated_at)"
                        + " VALUES (?, ?, ?, 1, ?, ?, ?)")) {
                    channel.setLong(1, hash);
                    channel.setString(2, CHANNEL);
                    channel.setString(3, Epochs.newEpoch(Instant.now().getEpochSecond()));
                    channel.setLong(4, id);
                    channel.setTimestamp(5, now);
                    channel.setTimestamp(6, now);
                    channel.executeUpdate();
                }
                try (PreparedStatement message = connection.prepareStatement("INSERT INTO cable_messages (id,"
                        + " channel_hash, channel, payload, binary_payload, stream_position, created_at)"
                        + " VALUES (?, ?, ?, ?, ?, 1, ?)")) {
                    message.setLong(1, id);
                    message.setLong(2, hash);
                    message.setString(3, CHANNEL);
                    message.setBytes(4, PAYLOAD.getBytes(StandardCharsets.UTF_8));
                    message.setBoolean(5, false);
                    message.setTimestamp(6, now);
                    message.executeUpdate();
                }
                connection.commit();
                if (appTables) {
                    // The application's own entity (the to-do list), for Hibernate's validate: what it would create.
                    try (Statement statement = connection.createStatement()) {
                        statement.execute("CREATE TABLE todo_items (id BIGINT NOT NULL PRIMARY KEY, title VARCHAR(255),"
                                + " done BOOLEAN NOT NULL)");
                        sequence(statement, database.kind, "todo_items_SEQ");
                        // The page-cursor test list's notes (PageNote), in the same persistence unit.
                        statement.execute("CREATE TABLE page_notes (id BIGINT NOT NULL PRIMARY KEY, list VARCHAR(255),"
                                + " text VARCHAR(255))");
                        sequence(statement, database.kind, "page_notes_SEQ");
                    }
                    connection.commit();
                }
                System.setProperty("cable.it.seeded-schema." + name, FreshDatabase.describe(connection));
            }
            return Map.of("quarkus.datasource.jdbc.url", database.url);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The id sequence Hibernate validates for a Panache entity: a sequence, except with MySQL Connector/J (db-kind
     * mysql), whose Hibernate dialect keeps it in a one-row table.
     */
    private static void sequence(Statement statement, String kind, String name) throws SQLException {
        if (kind.equals("mysql")) {
            statement.execute("CREATE TABLE " + name + " (next_val BIGINT)");
            statement.execute("INSERT INTO " + name + " VALUES (1)");
        } else {
            statement.execute("CREATE SEQUENCE " + name + " START WITH 1 INCREMENT BY 50");
        }
    }

    @Override
    public void stop() {
        try {
            database.drop();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
