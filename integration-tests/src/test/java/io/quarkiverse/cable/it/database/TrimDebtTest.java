package io.quarkiverse.cable.it.database;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.is;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseNodes;
import io.quarkiverse.cable.it.MetricsScrape;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.database.MessageStore;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.runtime.database.Trimmer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * Trim debt (messages older than the retention) rises while autotrim is off, shows in the metrics and the readiness
 * data, makes readiness fail over its threshold, and returns to 0 after a trim.
 */
@QuarkusTest
@TestProfile(TrimDebtTest.AutotrimOff.class)
public class TrimDebtTest {

    private static final String CHECK = "checks.find { it.name == 'Quarkus Cable' }";
    private static final int MAX_TRIM_DEBT = 50;

    public static class AutotrimOff implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.trim.enabled", "false", "quarkus.cable.health.details", "true",
                    "quarkus.cable.health.max-trim-debt", Integer.toString(MAX_TRIM_DEBT));
        }
    }

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CableRuntimeConfig config;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void trimDebtRisesWithoutAutotrimAndReturnsToZeroAfterATrim() throws Exception {
        trimEverything(); // rows other tests aged
        awaitDebt(0);

        String channel = Channels.unique("debt");
        broadcastAll(channel, 40);
        age(channel);
        awaitDebt(40);
        given().get("/q/health/ready").then().statusCode(200)
                .body(CHECK + ".data.'trim-debt'", is(40));

        // Nothing trims while autotrim is off, however much is written.
        broadcastAll(Channels.unique("fresh"), 300);
        String more = Channels.unique("debt-more");
        broadcastAll(more, 20);
        age(more);
        // Counted up to the threshold + 1 only: the count stays cheap however large the debt.
        awaitDebt(MAX_TRIM_DEBT + 1);
        given().get("/q/health/ready").then().statusCode(503)
                .body(CHECK + ".status", is("DOWN"))
                .body(CHECK + ".data.'trim-debt'", is(MAX_TRIM_DEBT + 1))
                .body(CHECK + ".data.reason", is("trim debt"))
                .body(CHECK + ".data.problems", is("trim debt over " + MAX_TRIM_DEBT + " expired messages (max-trim-debt)"));

        long trimmedBefore = engine.stats().rowsTrimmed();
        trimEverything();
        assertThat(engine.stats().rowsTrimmed() - trimmedBefore).isGreaterThanOrEqualTo(60);
        awaitDebt(0);
        await().atMost(Collector.TIMEOUT).untilAsserted(() -> given().get("/q/health/ready").then().statusCode(200)
                .body(CHECK + ".data.'trim-debt'", is(0)));
        assertThat(MetricsScrape.now().count("cable_trim_rows_total")).isEqualTo(engine.stats().rowsTrimmed());
    }

    private void trimEverything() throws SQLException {
        // A trimmer of its own on the application's store and counters: trims as the application's would, now.
        Trimmer trimmer = new Trimmer(new MessageStore(dataSource, SqlDialect.forDbKind(dbKind)), config,
                DatabaseNodes.applicationDatabaseConfig(), engine.stats());
        while (trimmer.trimOnce() > 0) {
            // one batch per call
        }
    }

    private static void awaitDebt(long expected) {
        await().atMost(Collector.TIMEOUT).until(() -> MetricsScrape.now().value("cable_trim_debt") == expected);
    }

    private void broadcastAll(String channel, int count) throws Exception {
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            commits.add(cable.broadcast(channel, "m" + i).toCompletableFuture());
        }
        CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    }

    private void age(String channel) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update = connection
                        .prepareStatement("UPDATE cable_messages SET created_at = ? WHERE channel = ?")) {
            update.setObject(1, LocalDateTime.ofInstant(Instant.now().minus(Duration.ofDays(2)), ZoneOffset.UTC));
            update.setString(2, channel);
            update.executeUpdate();
        }
    }
}
