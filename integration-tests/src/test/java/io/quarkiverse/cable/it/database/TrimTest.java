package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.CableConfigs;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.Jdbc;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.database.MessageStore;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.runtime.database.Trimmer;
import io.quarkus.test.junit.QuarkusTest;

/** Trimming deletes what is older than the retention, in proportion to writes, and nothing younger. */
@QuarkusTest
public class TrimTest {

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void autotrimRemovesExpiredRowsAsWritesContinue() throws Exception {
        String channel = Channels.unique("trim");
        long trimmedBefore = engine.stats().rowsTrimmed();
        broadcastAll(channel, 300);
        // Nothing deletes a row before it is expired, so all 300 age. The trims those writes earned may still be
        // running and start on them at once (CI saw 92 of them gone before a count): count the aged rows, not the
        // expired ones left.
        assertThat(age(channel, Duration.ofDays(2))).isEqualTo(300);

        // Each committed row earns two rows of trim credit; keep writing until the debt is paid.
        String fresh = Channels.unique("fresh");
        await().atMost(Collector.TIMEOUT).until(() -> {
            broadcastAll(fresh, 50);
            return countExpired() == 0;
        });
        assertThat(Jdbc.storedMessages(dataSource, channel)).isZero();
        assertThat(Jdbc.storedMessages(dataSource, fresh)).as("unexpired rows are kept").isPositive();
        assertThat(engine.stats().rowsTrimmed() - trimmedBefore).isGreaterThanOrEqualTo(300);
    }

    @Test
    void trimBatchSizeOfTwoStillTrims() throws Exception {
        // Solid Cable's random draw never trims at a batch size of 2; credit-based trimming does.
        String channel = Channels.unique("trim-two");
        broadcastAll(channel, 10);
        // Expired for this trimmer (retention 1 hour) only: the application's own trimmer (retention 1 day) may be
        // owed a trim by these writes, and would otherwise delete the rows before this one looks.
        age(channel, Duration.ofHours(2));
        CableStats stats = new CableStats();
        Trimmer trimmer = new Trimmer(store(), CableConfigs.with("quarkus.cable.message-retention", "1h"),
                CableConfigs.database("quarkus.cable.trim.batch-size", "2"), stats);
        trimmer.start("test");
        try {
            trimmer.afterWrite(1);
            await().atMost(Collector.TIMEOUT).until(() -> stats.rowsTrimmed() >= 2);
        } finally {
            trimmer.stop(10_000);
        }
    }

    private void broadcastAll(String channel, int count) throws Exception {
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            commits.add(cable.broadcast(channel, "m" + i).toCompletableFuture());
        }
        CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    }

    /** Makes the channel's messages {@code age} old; returns how many. */
    private int age(String channel, Duration age) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update = connection
                        .prepareStatement("UPDATE cable_messages SET created_at = ? WHERE channel = ?")) {
            update.setObject(1, LocalDateTime.ofInstant(Instant.now().minus(age), ZoneOffset.UTC));
            update.setString(2, channel);
            return update.executeUpdate();
        }
    }

    private long countExpired() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return store().countExpired(connection, Instant.now().minus(Duration.ofDays(1)), Long.MAX_VALUE);
        }
    }

    private MessageStore store() {
        return new MessageStore(dataSource, SqlDialect.forDbKind(dbKind));
    }

}
