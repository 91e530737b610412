package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.CableConfigs;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseNodes;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkiverse.cable.runtime.database.MessageStore;
import io.quarkiverse.cable.runtime.database.SchemaManager;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;

/**
 * The SQL broadcast, {@code cable_broadcast(channel, payload)}: from the {@code psql} and {@code mariadb} command-line
 * clients, from JDBC and from the documentation's trigger, a committed broadcast reaches a live subscriber exactly
 * once and in commit order, a rolled-back one never; interleaved with Java broadcasts from two nodes and with a
 * transaction that commits late, nothing is lost, duplicated or reordered and recovery from a position is exact; bad
 * arguments fail with SQL errors that name the limit.
 */
@QuarkusTest
@DisabledIfSystemProperty(named = "cable.it.db-kind", matches = "h2", disabledReason = "H2 has no SQL broadcast:"
        + " cable_broadcast exists on PostgreSQL and MariaDB/MySQL only")
public class SqlBroadcastTest {

    private static final Path DOCS_INCLUDES = Path.of("..", "docs", "modules", "ROOT", "pages", "includes");

    @Inject
    Cable nodeOne;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String jdbcUrl;

    @ConfigProperty(name = "quarkus.datasource.username")
    String user;

    @ConfigProperty(name = "quarkus.datasource.password")
    Optional<String> password;

    @Inject
    CableRuntimeConfig config;

    int maxChannelLength;
    long maxPayloadSize;

    CableEngine nodeTwo;

    @BeforeEach
    void installAsConfiguredAndStartNodeTwo() throws SQLException {
        maxChannelLength = config.maxChannelLength();
        maxPayloadSize = config.maxPayloadSize().asLongValue();
        // Other suites start nodes with the default limits, which reinstall the routine with theirs.
        install(maxChannelLength, maxPayloadSize);
        nodeTwo = DatabaseNodes.node("sql-node-two", () -> dataSource, SqlDialect.forDbKind(dbKind),
                CableConfigs.with("quarkus.cable.max-payload-size", Long.toString(maxPayloadSize),
                        "quarkus.cable.max-channel-length", Integer.toString(maxChannelLength)));
        nodeTwo.start();
    }

    @AfterEach
    void stopNodeTwo() {
        nodeTwo.stop();
    }

    private boolean postgres() {
        return dbKind.startsWith("postgres");
    }

    @Test
    void commandLineClientBroadcastsAreDeliveredOnceInOrderAndRolledBackOnesNever() throws Exception {
        String channel = Channels.unique("sql-cli");
        Collector collector = new Collector();
        try (Subscription subscription = nodeOne.subscribe(channel, collector)) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            String call = postgres() ? "SELECT cable_broadcast" : "CALL cable_broadcast";
            String script = call + "('" + channel + "', 'cli-1 ü€');\n"
                    + "BEGIN;\n" + call + "('" + channel + "', 'cli-2');\n" + call + "('" + channel + "', 'cli-3');\n"
                    + "COMMIT;\n"
                    + "BEGIN;\n" + call + "('" + channel + "', 'cli-rolled-back');\nROLLBACK;\n";
            assertThat(runClient(script).exitCode).isZero();
            nodeTwo.broadcast(channel, "java").toCompletableFuture().get(60, TimeUnit.SECONDS);
            collector.awaitCount(4);
            assertThat(collector.texts()).containsExactly("cli-1 ü€", "cli-2", "cli-3", "java");
            assertConsecutive(collector.messages, 1);
        }
    }

    @Test
    void commandLineClientErrorsNameTheLimit() throws Exception {
        String call = postgres() ? "SELECT cable_broadcast" : "CALL cable_broadcast";
        Result result = runClient(call + "('" + "c".repeat(maxChannelLength + 1) + "', 'x');\n");
        assertThat(result.exitCode).isNotZero();
        assertThat(result.stderr).contains("cable_broadcast: the channel name is " + (maxChannelLength + 1)
                + " characters, over quarkus.cable.max-channel-length (" + maxChannelLength + ")");
    }

    @Test
    void jdbcBroadcastsAndBadArguments() throws Exception {
        String channel = Channels.unique("sql-jdbc");
        Collector collector = new Collector();
        try (Subscription subscription = nodeOne.subscribe(channel, collector);
                Connection connection = dataSource.getConnection()) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertSqlError(connection, null, "x", "22004", "cable_broadcast: the channel name must not be null or empty");
            assertSqlError(connection, "", "x", "22004", "cable_broadcast: the channel name must not be null or empty");
            assertSqlError(connection, channel, null, "22004", "cable_broadcast: the payload must not be null");
            assertSqlError(connection, "c".repeat(maxChannelLength + 1), "x", "22001",
                    "over quarkus.cable.max-channel-length (" + maxChannelLength + ")");

            // The limits are the installed ones: installed with others, the routine enforces those.
            install(16, 100);
            try {
                assertSqlError(connection, "short", "p".repeat(101), "54000",
                        "cable_broadcast: the payload is 101 bytes, over quarkus.cable.max-payload-size (100 bytes)");
                assertSqlError(connection, "c".repeat(17), "x", "22001",
                        "the channel name is 17 characters, over quarkus.cable.max-channel-length (16)");
                SchemaManager configured = new SchemaManager(SqlDialect.forDbKind(dbKind), maxChannelLength,
                        maxPayloadSize);
                assertThatThrownBy(() -> configured.validate(connection, "default"))
                        .hasMessageContaining("cable_broadcast")
                        .hasMessageContaining("max-payload-size=" + maxPayloadSize);
            } finally {
                install(maxChannelLength, maxPayloadSize);
            }
            assertThat(new SchemaManager(SqlDialect.forDbKind(dbKind), maxChannelLength, maxPayloadSize)
                    .missing(connection)).as("installed as configured").isEmpty();

            // A failed call in a transaction broadcasts nothing; the next, committed one is the channel's first.
            connection.setAutoCommit(false);
            assertSqlError(connection, "c".repeat(maxChannelLength + 1), "x", "22001",
                    "over quarkus.cable.max-channel-length (" + maxChannelLength + ")");
            connection.rollback();
            long first = sqlBroadcast(connection, channel, "jdbc-1");
            long second = sqlBroadcast(connection, channel, "jdbc-2");
            assertThat(second).isEqualTo(first + 1);
            connection.commit();
            connection.setAutoCommit(true);
            sqlBroadcast(connection, channel, "jdbc-3");
            if (!postgres()) {
                // The function (not only the procedure) on MariaDB/MySQL, in autocommit mode.
                try (PreparedStatement select = connection.prepareStatement("SELECT cable_broadcast(?, ?)")) {
                    select.setString(1, channel);
                    select.setString(2, "jdbc-4");
                    try (ResultSet rows = select.executeQuery()) {
                        assertThat(rows.next()).isTrue();
                    }
                }
            }
            List<String> expected = postgres() ? List.of("jdbc-1", "jdbc-2", "jdbc-3")
                    : List.of("jdbc-1", "jdbc-2", "jdbc-3", "jdbc-4");
            collector.awaitCount(expected.size());
            nodeOne.broadcast(channel, "java").toCompletableFuture().get(60, TimeUnit.SECONDS);
            collector.awaitCount(expected.size() + 1);
            assertThat(collector.texts().subList(0, expected.size())).isEqualTo(expected);
            assertConsecutive(collector.messages, 1);
            assertThat(collector.messages.get(0).id()).isEqualTo(first);
        }
    }

    /**
     * The channels only the cable writes (its disconnect commands, whispers and presence events: the rule of
     * {@link IdentityChannels#isCableOwned}, which the Java API and the HTTP endpoint refuse) are refused by the
     * routine too, with a SQL error and nothing written, whether called as the function or as the procedure: a role
     * granted EXECUTE could otherwise close any user's connections or splice forged frames into every client's. The
     * comparison is exact, as Java's: names that differ in case, by a trailing space or are a shorter prefix are
     * ordinary channels (MariaDB/MySQL compare text case-insensitively and pad spaces unless told otherwise), and an
     * identity channel is allowed, as {@code cable.broadcast} allows it.
     */
    @Test
    void theCableOwnedChannelsAreRefusedExactlyAsByTheJavaApi() throws Exception {
        List<String> reserved = List.of(IdentityChannels.CONTROL, IdentityChannels.WHISPERS, "cable:whisper",
                "cable:whisper:x", IdentityChannels.PRESENCE, IdentityChannels.IDENTITIES_PRESENT, "cable:presence-x");
        List<String> ordinary = List.of("cable:control", "cable:control:disconnect ", "cable:control:disconnect:x",
                "CABLE:CONTROL:DISCONNECT", "Cable:whispers", "cable:whispe", "cable:presenc", "CABLE:PRESENCE",
                " cable:presence", IdentityChannels.PREFIX + "user=" + Channels.unique("sql-identity"),
                Channels.unique("sql-ordinary"));
        // The list is the Java rule's: if it changes, this test's lists must follow.
        assertThat(reserved).allMatch(IdentityChannels::isCableOwned);
        assertThat(ordinary).noneMatch(IdentityChannels::isCableOwned);
        for (String channel : reserved) {
            assertThatThrownBy(() -> nodeOne.broadcast(channel, "x").toCompletableFuture().get(60, TimeUnit.SECONDS))
                    .as("the Java API refuses %s", channel).hasCauseInstanceOf(CableException.InvalidMessage.class);
        }
        String forged = "{\"type\":\"disconnect\",\"identifiers\":{\"user\":\"" + Channels.unique("victim")
                + "\"},\"reconnect\":false}";
        String ordinaryChannel = ordinary.get(ordinary.size() - 1);
        Collector collector = new Collector();
        try (Subscription subscription = nodeOne.subscribe(ordinaryChannel, collector);
                Connection connection = dataSource.getConnection()) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            long before = lastId(connection);
            for (String channel : reserved) {
                for (boolean function : postgres() ? List.of(true) : List.of(true, false)) {
                    assertThatThrownBy(() -> sqlBroadcast(connection, channel, forged, function))
                            .as("%s of %s", function ? "the function" : "the procedure", channel)
                            .isInstanceOf(SQLException.class)
                            .hasMessageContaining("cable_broadcast: the channel '" + channel + "' is reserved")
                            .satisfies(e -> assertThat(((SQLException) e).getSQLState())
                                    .isEqualTo(dbKind.equals("mysql") ? ((SQLException) e).getSQLState() : "42501"));
                }
            }
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT COUNT(*) FROM cable_messages WHERE channel = ? AND id > ?")) {
                for (String channel : reserved) {
                    select.setString(1, channel);
                    select.setLong(2, before);
                    try (ResultSet rows = select.executeQuery()) {
                        rows.next();
                        assertThat(rows.getLong(1)).as("messages stored on %s", channel).isZero();
                    }
                }
            }
            assertThat(lastId(connection)).as("no id taken by a refused call").isEqualTo(before);

            List<Long> ids = new ArrayList<>();
            for (String channel : ordinary) {
                ids.add(sqlBroadcast(connection, channel, "ordinary", true));
            }
            try (PreparedStatement select = connection.prepareStatement("SELECT channel FROM cable_messages WHERE id = ?")) {
                for (int i = 0; i < ordinary.size(); i++) {
                    select.setLong(1, ids.get(i));
                    try (ResultSet rows = select.executeQuery()) {
                        assertThat(rows.next()).as("stored on %s", ordinary.get(i)).isTrue();
                        assertThat(rows.getString(1)).isEqualTo(ordinary.get(i));
                    }
                }
            }
            collector.awaitCount(1);
            assertThat(collector.texts()).containsExactly("ordinary");
        }
    }

    private static long lastId(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT last_id FROM cable_shards WHERE shard = 0")) {
            assertThat(rows.next()).isTrue();
            return rows.getLong(1);
        }
    }

    /** {@code function}: {@code SELECT cable_broadcast(?, ?)}, its id; else the procedure (MariaDB/MySQL). */
    private long sqlBroadcast(Connection connection, String channel, String payload, boolean function)
            throws SQLException {
        if (!function) {
            return sqlBroadcast(connection, channel, payload);
        }
        try (PreparedStatement select = connection.prepareStatement("SELECT cable_broadcast(?, ?)")) {
            select.setString(1, channel);
            select.setString(2, payload);
            try (ResultSet rows = select.executeQuery()) {
                assertThat(rows.next()).isTrue();
                return rows.getLong(1);
            }
        }
    }

    /**
     * The routine checks the database's identity as the writer does (DatabaseIdentityCheck): on a database whose
     * recorded identity is another one (a promoted standby or replica, another Galera cluster) the first SQL broadcast
     * gives every channel a new epoch before it writes, records the current identity and where its ids start. On
     * PostgreSQL and MariaDB/MySQL alike.
     */
    @Test
    void aSqlBroadcastOnAnotherDatabaseGivesEveryChannelANewEpochFirst() throws Exception {
        String channel = Channels.unique("sql-identity");
        String other = Channels.unique("sql-identity-other");
        Collector collector = new Collector();
        try (Subscription subscription = nodeOne.subscribe(channel, collector);
                Connection connection = dataSource.getConnection()) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            sqlBroadcast(connection, channel, "before");
            sqlBroadcast(connection, other, "other-before");
            // Delivered before the identity changes: a poll after the renewal would report it under the new epoch.
            collector.awaitCount(1);
            String before = epochOf(connection, channel);
            String otherBefore = epochOf(connection, other);
            String current = identity(connection);
            assertThat(current).as("the identity the last writes recorded").isNotNull();
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate("UPDATE cable_shards SET db_identity = 'the-old-primary' WHERE shard = 0");
            }

            long id = sqlBroadcast(connection, channel, "after");

            String after = epochOf(connection, channel);
            assertThat(after).as("the channel's epoch after the SQL broadcast on another database").isNotEqualTo(before);
            assertThat(epochOf(connection, other)).as("every channel's epoch, not only the broadcast's")
                    .isEqualTo(after).isNotEqualTo(otherBefore);
            assertThat(identity(connection)).as("the database's identity, recorded by the routine").isEqualTo(current);
            try (Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery(
                            "SELECT identity_since FROM cable_shards WHERE shard = 0")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getLong(1)).as("where the new database's ids start").isEqualTo(id - 1);
            }
            collector.awaitCount(2);
            assertThat(collector.texts()).containsExactly("before", "after");
            assertThat(collector.messages.get(0).epoch()).isEqualTo(before);
            assertThat(collector.messages.get(1).epoch()).as("the message written after the check").isEqualTo(after);
            assertThat(collector.messages.get(1).position()).isEqualTo(2);

            // With the identity recorded, the next SQL broadcast keeps the epoch.
            sqlBroadcast(connection, channel, "again");
            assertThat(epochOf(connection, channel)).isEqualTo(after);
        }
    }

    private static String epochOf(Connection connection, String channel) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT epoch FROM cable_channels WHERE channel = ?")) {
            select.setString(1, channel);
            try (ResultSet rows = select.executeQuery()) {
                assertThat(rows.next()).as("channel row of %s", channel).isTrue();
                return rows.getString(1);
            }
        }
    }

    private static String identity(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT db_identity FROM cable_shards WHERE shard = 0")) {
            assertThat(rows.next()).isTrue();
            return rows.getString(1);
        }
    }

    @Test
    void theDocumentedTriggerBroadcastsCommittedRowChanges() throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS orders");
            statement.execute("CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, item VARCHAR(200) NOT NULL,"
                    + " status VARCHAR(20) NOT NULL)");
        }
        Path trigger = DOCS_INCLUDES.resolve(postgres() ? "sql-broadcast-trigger-postgresql.sql"
                : "sql-broadcast-trigger-mariadb.sql");
        Result installed = runClient(Files.readString(trigger));
        assertThat(installed.exitCode).as(installed.stderr).isZero();

        Collector collector = new Collector();
        try (Subscription subscription = nodeOne.subscribe("orders", collector);
                Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            statement.executeUpdate("INSERT INTO orders VALUES (1, 'tea', 'new')"); // autocommit
            connection.setAutoCommit(false);
            statement.executeUpdate("UPDATE orders SET status = 'paid' WHERE id = 1");
            statement.executeUpdate("INSERT INTO orders VALUES (2, 'cake', 'new')");
            connection.commit();
            statement.executeUpdate("DELETE FROM orders WHERE id = 2");
            connection.rollback();
            statement.executeUpdate("DELETE FROM orders WHERE id = 1");
            connection.commit();
            connection.setAutoCommit(true);
            nodeOne.broadcast("orders", "{\"op\":\"END\"}").toCompletableFuture().get(60, TimeUnit.SECONDS);

            collector.awaitCount(5);
            List<JsonObject> changes = collector.texts().stream().map(JsonObject::new).toList();
            assertThat(changes).extracting(change -> change.getString("op") + " " + change.getValue("id"))
                    .containsExactly("INSERT 1", "UPDATE 1", "INSERT 2", "DELETE 1", "END null");
            assertThat(changes.get(1).getJsonObject("row").getString("status")).isEqualTo("paid");
            assertThat(changes.get(2).getJsonObject("row").getString("item")).isEqualTo("cake");
            assertConsecutive(collector.messages, collector.messages.get(0).position());
        } finally {
            try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS orders");
            }
        }
    }

    @Test
    void aLateCommittingSqlBroadcastHoldsBackLaterJavaBroadcastsAndTheReverse() throws Exception {
        String channel = Channels.unique("sql-late");
        Collector collector = new Collector();
        MessageStore store = new MessageStore(dataSource, SqlDialect.forDbKind(dbKind));
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (Subscription subscription = nodeOne.subscribe(channel, collector)) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            try (Connection held = dataSource.getConnection()) {
                held.setAutoCommit(false);
                long earlyId = sqlBroadcast(held, channel, "sql-early");
                CompletableFuture<Void> late = nodeTwo.broadcast(channel, "java-late").toCompletableFuture();
                awaitBlockedOnLock();
                assertThat(late).as("a higher id must not commit while a lower one is open").isNotDone();
                assertThat(collector.messages).isEmpty();
                held.commit();
                late.get(60, TimeUnit.SECONDS);
                collector.awaitCount(2);
                assertThat(collector.messages.get(0).id()).isEqualTo(earlyId);
            }
            // The reverse: the cable's writer (the same statements, with a receipt) holds the lock, and a SQL
            // broadcast waits for it.
            try (Connection held = dataSource.getConnection()) {
                held.setAutoCommit(false);
                store.writeWithReceipt(held, List.of(new OutgoingMessage(channel, ChannelHash.of(channel),
                        "java-early".getBytes(), false, System.nanoTime(), new CompletableFuture<>())), Instant.now(),
                        UUID.randomUUID().toString(), 1, false);
                Future<Long> sqlLate = executor.submit(() -> {
                    try (Connection connection = dataSource.getConnection()) {
                        return sqlBroadcast(connection, channel, "sql-late");
                    }
                });
                awaitBlockedOnLock();
                assertThat(sqlLate).isNotDone();
                held.commit();
                sqlLate.get(60, TimeUnit.SECONDS);
            }
            collector.awaitCount(4);
            assertThat(collector.texts()).containsExactly("sql-early", "java-late", "java-early", "sql-late");
            assertConsecutive(collector.messages, 1);
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void interleavedWithJavaBroadcastsFromTwoNodesAndALateCommitNothingIsLostDuplicatedOrReordered()
            throws Exception {
        String channel = Channels.unique("sql-mixed");
        Collector reference = new Collector();
        ExecutorService producers = Executors.newFixedThreadPool(7);
        int sqlThreads = 3;
        int transactions = 30;
        int javaPerThread = 60;
        try (Subscription all = nodeOne.subscribe(channel, reference)) {
            all.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            List<Future<?>> producing = new ArrayList<>();
            for (int t = 0; t < sqlThreads; t++) {
                String producer = "sql" + t;
                producing.add(producers.submit(() -> {
                    try (Connection connection = dataSource.getConnection()) {
                        connection.setAutoCommit(false);
                        for (int tx = 0; tx < transactions; tx++) {
                            boolean rollback = tx % 5 == 4;
                            String prefix = rollback ? "rolled-back-" + producer : producer;
                            sqlBroadcast(connection, channel, prefix + "|" + (2 * tx));
                            sqlBroadcast(connection, channel, prefix + "|" + (2 * tx + 1));
                            if (rollback) {
                                connection.rollback();
                            } else {
                                connection.commit();
                            }
                        }
                    }
                    return null;
                }));
            }
            List<CompletableFuture<Void>> javaCommits = new java.util.concurrent.CopyOnWriteArrayList<>();
            int node = 0;
            for (Cable cable : List.of(nodeOne, nodeTwo, nodeOne, nodeTwo)) {
                String producer = "java" + node++;
                producing.add(producers.submit(() -> {
                    for (int seq = 0; seq < javaPerThread; seq++) {
                        javaCommits.add(cable.broadcast(channel, producer + "|" + seq).toCompletableFuture());
                    }
                    return null;
                }));
            }
            reference.awaitCount(20);
            // A SQL broadcast whose transaction holds the writers' lock while everyone else waits, then commits.
            try (Connection held = dataSource.getConnection()) {
                held.setAutoCommit(false);
                sqlBroadcast(held, channel, "late|0");
                // A broadcast queued behind it, so something certainly waits (the producers may be done).
                javaCommits.add(nodeTwo.broadcast(channel, "behind-late|0").toCompletableFuture());
                awaitBlockedOnLock();
                held.commit();
            }
            for (Future<?> future : producing) {
                future.get(120, TimeUnit.SECONDS);
            }
            CompletableFuture.allOf(javaCommits.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);

            int total = sqlThreads * (transactions - transactions / 5) * 2 + 4 * javaPerThread + 2;
            reference.awaitCount(total);
            List<String> texts = reference.texts();
            assertThat(texts).hasSize(total).doesNotHaveDuplicates().contains("late|0", "behind-late|0")
                    .noneMatch(text -> text.startsWith("rolled-back"));
            assertConsecutive(reference.messages, 1);
            assertEachProducerInOrder(texts);

            // Recovery from a position reached before the late commit replays exactly the rest.
            StreamPosition from = StreamPosition.of(reference.messages.get(9));
            Collector recovered = new Collector();
            try (Subscription recovering = nodeTwo.subscribe(channel, from, recovered)) {
                recovering.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
                recovered.awaitCount(total - 10);
                assertThat(recovered.texts()).isEqualTo(texts.subList(10, total));
                assertConsecutive(recovered.messages, 11);
            }
        } finally {
            producers.shutdownNow();
        }
    }

    /** PostgreSQL: the doorbell rings with the commit (and only then), with a payload no node ignores as its own. */
    @Test
    void theDoorbellRingsWithTheCommit() throws Exception {
        assumeTrue(postgres(), "MariaDB and MySQL have no NOTIFY: their probe reads the shard row the SQL broadcast"
                + " advances");
        String channel = Channels.unique("sql-doorbell");
        Class<?> pgConnection = Class.forName("org.postgresql.PGConnection");
        Method notifications = pgConnection.getMethod("getNotifications", int.class);
        Method parameter = Class.forName("org.postgresql.PGNotification").getMethod("getParameter");
        try (Connection listening = dataSource.getConnection();
                Statement listen = listening.createStatement();
                Connection broadcasting = dataSource.getConnection()) {
            listen.execute("LISTEN quarkus_cable");
            Object pg = listening.unwrap(pgConnection);
            broadcasting.setAutoCommit(false);
            sqlBroadcast(broadcasting, channel, "rung");
            assertThat(sqlRings((Object[]) notifications.invoke(pg, 500), parameter)).as("not before the commit")
                    .isZero();
            broadcasting.commit();
            await().atMost(Collector.TIMEOUT).until(() -> sqlRings((Object[]) notifications.invoke(pg, 1000),
                    parameter) > 0);
            listen.execute("UNLISTEN quarkus_cable");
        }
    }

    private static int sqlRings(Object[] notifications, Method parameter) throws Exception {
        int rings = 0;
        for (Object notification : notifications == null ? new Object[0] : notifications) {
            if ("sql".equals(parameter.invoke(notification))) {
                rings++;
            }
        }
        return rings;
    }

    private long sqlBroadcast(Connection connection, String channel, String payload) throws SQLException {
        if (postgres()) {
            try (PreparedStatement select = connection.prepareStatement("SELECT cable_broadcast(?, ?)")) {
                select.setString(1, channel);
                select.setString(2, payload);
                try (ResultSet rows = select.executeQuery()) {
                    rows.next();
                    return rows.getLong(1);
                }
            }
        }
        try (PreparedStatement call = connection.prepareStatement("CALL cable_broadcast(?, ?)")) {
            call.setString(1, channel);
            call.setString(2, payload);
            call.execute();
        }
        // The procedure returns nothing; the id is the newest one, locked by this transaction.
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(connection.getAutoCommit()
                        ? "SELECT MAX(id) FROM cable_messages"
                        : "SELECT last_id FROM cable_shards WHERE shard = 0 FOR UPDATE")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private void assertSqlError(Connection connection, String channel, String payload, String sqlState,
            String message) {
        assertThatThrownBy(() -> sqlBroadcast(connection, channel, payload)).isInstanceOf(SQLException.class)
                .hasMessageContaining(message)
                // MySQL Connector/J reports SIGNAL's SQLSTATE differently (22001 for a 22004); the message is the same.
                .satisfies(e -> assertThat(((SQLException) e).getSQLState())
                        .isEqualTo(dbKind.equals("mysql") ? ((SQLException) e).getSQLState() : sqlState));
    }

    private void install(int channelLength, long payloadSize) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            new SchemaManager(SqlDialect.forDbKind(dbKind), channelLength, payloadSize).update(connection);
        }
    }

    private static void assertConsecutive(List<CableMessage> messages, long firstPosition) {
        for (int i = 0; i < messages.size(); i++) {
            assertThat(messages.get(i).position()).as("position of message %d", i).isEqualTo(firstPosition + i);
            assertThat(messages.get(i).epoch()).isEqualTo(messages.get(0).epoch());
            if (i > 0) {
                assertThat(messages.get(i).id()).isGreaterThan(messages.get(i - 1).id());
            }
        }
    }

    /** Each producer's messages ({@code producer|sequence}) arrive in the order it sent them. */
    private static void assertEachProducerInOrder(List<String> texts) {
        Map<String, Integer> last = new HashMap<>();
        for (String text : texts) {
            String[] parts = text.split("\\|");
            int sequence = Integer.parseInt(parts[1]);
            Integer previous = last.put(parts[0], sequence);
            assertThat(previous == null ? -1 : previous).as("order of %s", parts[0]).isLessThan(sequence);
        }
    }

    /** Waits until the database reports a session waiting for a row lock: a writer behind the held transaction. */
    private void awaitBlockedOnLock() {
        String query = postgres() ? "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                : "SELECT count(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'";
        await().atMost(Collector.TIMEOUT).until(() -> {
            try (Connection connection = dataSource.getConnection();
                    Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery(query)) {
                rows.next();
                return rows.getLong(1) > 0;
            }
        });
    }

    private record Result(int exitCode, String stdout, String stderr) {
    }

    private static final Pattern URL = Pattern.compile("jdbc:\\w+://([^:/?]+)(?::(\\d+))?/([^?;]+).*");

    /** Runs {@code script} with the database's command-line client, as a user would. */
    private Result runClient(String script) throws IOException, InterruptedException {
        Matcher url = URL.matcher(jdbcUrl);
        assertThat(url.matches()).as(jdbcUrl).isTrue();
        String host = url.group(1);
        String database = url.group(3);
        List<String> command = postgres()
                ? List.of("psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", host, "-p",
                        url.group(2) == null ? "5432" : url.group(2), "-U", user, "-d", database)
                : List.of("mariadb", "--batch", "--default-character-set=utf8mb4", "-h", host, "-P",
                        url.group(2) == null ? "3306" : url.group(2), "-u", user, database);
        Path out = Files.createTempFile("cable-sql-client", ".out");
        Path err = Files.createTempFile("cable-sql-client", ".err");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            builder.environment().put(postgres() ? "PGPASSWORD" : "MYSQL_PWD", password.orElse(""));
            builder.environment().put("PGCLIENTENCODING", "UTF8");
            Process process = builder.start();
            try (OutputStream in = process.getOutputStream()) {
                in.write(script.getBytes(StandardCharsets.UTF_8));
            }
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the client finished").isTrue();
            return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
