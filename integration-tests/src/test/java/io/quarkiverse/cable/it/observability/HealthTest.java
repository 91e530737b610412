package io.quarkiverse.cable.it.observability;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/**
 * /q/health: the cable is ready while its database answers, not ready while it does not, ready again after. Readiness
 * shows no internals by default (quarkus.cable.health.details is off): up or down, and a short reason when down;
 * TrimDebtTest covers the details.
 */
@QuarkusTest
public class HealthTest {

    private static final String CHECK = "checks.find { it.name == 'Quarkus Cable' }";

    @Inject
    Cable cable;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @ConfigProperty(name = "quarkus.datasource.username")
    String username;

    @ConfigProperty(name = "quarkus.datasource.password")
    Optional<String> password;

    @Test
    void readyAndLiveInNormalOperation() {
        ready().statusCode(200)
                .body("status", is("UP"))
                .body(CHECK + ".status", is("UP"))
                .body(CHECK + ".data", nullValue());
        given().get("/q/health/live").then().statusCode(200)
                .body(CHECK + ".status", is("UP"))
                .body(CHECK + ".data.poller", is("running"))
                .body(CHECK + ".data.writer", is("running"))
                .body(CHECK + ".data.trimmer", is("running"));
    }

    /** The cable's id allocator table disappears (as after a bad migration): not ready, then ready once it is back. */
    @Test
    void notReadyWhileTheCableTablesAreMissing() throws Exception {
        awaitReady();
        try {
            execute("ALTER TABLE cable_shards RENAME TO cable_shards_hidden");
            await().atMost(Collector.TIMEOUT).untilAsserted(() -> ready().statusCode(503)
                    .body(CHECK + ".status", is("DOWN"))
                    // The condition only: not the database's error text (table, schema, host names), no figures.
                    .body(CHECK + ".data.reason", is("database unreachable"))
                    .body(CHECK + ".data.size()", is(1)));
            // Liveness never depends on the database.
            given().get("/q/health/live").then().statusCode(200);
        } finally {
            execute("ALTER TABLE cable_shards_hidden RENAME TO cable_shards");
        }
        awaitReady();
        assertDelivers();
    }

    /**
     * PostgreSQL terminates every session of the application's database and refuses new ones for a while: not
     * ready, then ready again once connections are allowed, and the cable delivers again.
     */
    @Test
    void notReadyWhileThePostgreSqlDatabaseRefusesConnections() throws Exception {
        assumeTrue(dbKind.equals("postgresql"), "terminating sessions and refusing connections is PostgreSQL's");
        awaitReady();
        String database;
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT current_database()")) {
            rows.next();
            database = rows.getString(1);
        }
        String adminUrl = url.replaceFirst("/[^/?]+(\\?|$)", "/postgres$1");
        try (Connection admin = DriverManager.getConnection(adminUrl, username, password.orElse(""));
                Statement statement = admin.createStatement()) {
            String quoted = '"' + database.replace("\"", "\"\"") + '"';
            try {
                statement.execute("ALTER DATABASE " + quoted + " ALLOW_CONNECTIONS false");
                try (PreparedStatement terminate = admin.prepareStatement("SELECT count(pg_terminate_backend(pid))"
                        + " FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()")) {
                    terminate.setString(1, database);
                    terminate.executeQuery().close();
                }
                await().atMost(Collector.TIMEOUT).untilAsserted(() -> ready().statusCode(503)
                        .body(CHECK + ".status", is("DOWN"))
                        .body(CHECK + ".data.reason", is("database unreachable")));
                given().get("/q/health/live").then().statusCode(200);
            } finally {
                statement.execute("ALTER DATABASE " + quoted + " ALLOW_CONNECTIONS true");
            }
        }
        awaitReady();
        assertDelivers();
    }

    /**
     * A SQL publisher calls {@code cable_broadcast} and keeps its transaction open: it holds the writers' lock (the id
     * allocator's row), so this node's writer waits with a broadcast queued. Readiness goes down with
     * {@code writer stalled} within {@code quarkus.cable.health.writer-timeout} (10 s by default; with the former 30 s
     * a 12 s hold froze every broadcast of the cluster while readiness stayed up), and up again once the publisher
     * commits and the broadcast is written.
     */
    @Test
    void notReadyWhileASqlPublisherHoldsTheWritersLock() throws Exception {
        assumeTrue(dbKind.equals("postgresql"), "the held transaction is a PostgreSQL session's");
        awaitReady();
        String channel = Channels.unique("held");
        Collector collector = new Collector();
        try (Subscription subscription = cable.subscribe(channel, collector);
                Connection publisher = DriverManager.getConnection(url, username, password.orElse(""))) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            publisher.setAutoCommit(false);
            try (PreparedStatement call = publisher.prepareStatement("SELECT cable_broadcast(?, ?)")) {
                call.setString(1, channel);
                call.setString(2, "from the publisher");
                call.executeQuery().close();
            }
            long heldAt = System.nanoTime();
            java.util.concurrent.CompletableFuture<Void> queued = cable.broadcast(channel, "from the application")
                    .toCompletableFuture();
            // The default writer-timeout (10 s) and a margin for a loaded machine, under the former default (30 s).
            await().atMost(java.time.Duration.ofSeconds(25)).pollInterval(java.time.Duration.ofMillis(250))
                    .untilAsserted(() -> ready().statusCode(503)
                            .body(CHECK + ".status", is("DOWN"))
                            .body(CHECK + ".data.reason", is("writer stalled")));
            System.out.printf("HealthTest: readiness down %d ms after the publisher took the lock%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - heldAt));
            assertThat(queued).as("the application's broadcast waits for the lock").isNotDone();
            given().get("/q/health/live").then().statusCode(200);
            publisher.commit();
            queued.get(60, TimeUnit.SECONDS);
            awaitReady();
            collector.awaitCount(2);
        }
    }

    /**
     * What publishing.adoc and security.adoc advise for publishing roles on PostgreSQL: with
     * {@code idle_in_transaction_session_timeout} (set here on the session, as {@code ALTER ROLE ... SET} does for
     * each of the role's sessions) a publisher left idle inside its transaction after {@code cable_broadcast} is ended
     * by the server, its broadcast rolled back and the writers' lock released: the application's broadcast goes out.
     */
    @Test
    void anIdleInTransactionTimeoutReleasesAHeldWritersLock() throws Exception {
        assumeTrue(dbKind.equals("postgresql"), "idle_in_transaction_session_timeout is PostgreSQL's");
        awaitReady();
        String channel = Channels.unique("released");
        Collector collector = new Collector();
        try (Subscription subscription = cable.subscribe(channel, collector);
                Connection publisher = DriverManager.getConnection(url, username, password.orElse(""))) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            try (Statement statement = publisher.createStatement()) {
                statement.execute("SET idle_in_transaction_session_timeout = '2s'");
            }
            publisher.setAutoCommit(false);
            try (PreparedStatement call = publisher.prepareStatement("SELECT cable_broadcast(?, ?)")) {
                call.setString(1, channel);
                call.setString(2, "from the idle publisher");
                call.executeQuery().close();
            }
            cable.broadcast(channel, "from the application").toCompletableFuture().get(60, TimeUnit.SECONDS);
            collector.awaitCount(1);
            // The publisher's session was ended: its broadcast rolled back, its commit fails.
            org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, publisher::commit);
            assertThat(collector.texts()).containsExactly("from the application");
        }
        awaitReady();
    }

    private static ValidatableResponse ready() {
        return given().get("/q/health/ready").then();
    }

    private static void awaitReady() {
        await().atMost(Collector.TIMEOUT).untilAsserted(() -> ready().statusCode(200).body(CHECK + ".status", is("UP")));
    }

    private void assertDelivers() throws Exception {
        String channel = Channels.unique("health");
        Collector collector = new Collector();
        try (Subscription subscription = cable.subscribe(channel, collector)) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.broadcast(channel, "after recovery").toCompletableFuture().get(60, TimeUnit.SECONDS);
            collector.awaitCount(1);
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
