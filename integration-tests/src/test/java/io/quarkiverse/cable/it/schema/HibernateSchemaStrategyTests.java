package io.quarkiverse.cable.it.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.entity.CableChannelEntity;
import io.quarkiverse.cable.entity.CableMessageEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Whatever Hibernate ORM's schema management strategy on the persistence unit holding the cable's entities, the
 * cable's tables come out of the start as they went in (column types, indexes) with their rows, and the entities
 * still answer queries. Each subclass starts the application with one strategy on a database seeded by
 * {@link SeededCableTables}. Before the entities were mapped as subselects, {@code drop-and-create} dropped the
 * tables (rows and indexes gone) and {@code update} changed them.
 */
public abstract class HibernateSchemaStrategyTests {

    @Inject
    Cable cable;

    @Inject
    AgroalDataSource dataSource;

    /** The name of the seeded database, also its {@link SeededCableTables} init argument. */
    abstract String database();

    @Test
    void theCableTablesAndRowsAreUntouchedAndTheEntitiesAnswerQueries() throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            assertThat(FreshDatabase.describe(connection)).as("the cable tables after the start")
                    .isEqualTo(SeededCableTables.describedBefore(database()));
        }

        String channel = SeededCableTables.CHANNEL;
        CableChannelEntity seeded = QuarkusTransaction.requiringNew().call(() -> CableChannelEntity.findByName(channel));
        assertThat(seeded).as("the channel row stored before the start").isNotNull();
        assertThat(seeded.lastPosition).isEqualTo(1);

        cable.broadcast(channel, "after the start").toCompletableFuture().get(30, TimeUnit.SECONDS);
        List<CableMessageEntity> latest = QuarkusTransaction.requiringNew()
                .call(() -> CableMessageEntity.latest(channel, 5));
        assertThat(latest).extracting(m -> new String(m.payload, StandardCharsets.UTF_8))
                .containsExactly("after the start", SeededCableTables.PAYLOAD);
        assertThat(latest).extracting(m -> m.streamPosition).containsExactly(2L, 1L);
        assertThat(QuarkusTransaction.requiringNew().call(() -> CableChannelEntity.findByName(channel).lastPosition))
                .isEqualTo(2);

        assertThat(QuarkusTransaction.requiringNew().call(() -> CableMessageEntity.deleteOlderThan(
                LocalDateTime.now(ZoneOffset.UTC).minusDays(1)))).as("nothing that old").isZero();
        assertThat(QuarkusTransaction.requiringNew().call(() -> CableMessageEntity.deleteOlderThan(
                LocalDateTime.now(ZoneOffset.UTC).plusDays(1)))).as("both messages").isEqualTo(2);
        assertThat(QuarkusTransaction.requiringNew().call(() -> CableMessageEntity.latest(channel, 5))).isEmpty();
    }

    /**
     * Hibernate ORM's {@code strategy} on the persistence unit that holds the application's own entity (the to-do
     * list) and the cable's, on a seeded database. (This application's default unit is not created: its other unit
     * selects entities by package.)
     */
    abstract static class Strategy implements QuarkusTestProfile {
        private final String strategy;

        Strategy(String strategy) {
            this.strategy = strategy;
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.persistence-unit", "todos",
                    "quarkus.hibernate-orm.\"todos\".schema-management.strategy", strategy);
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(SeededCableTables.class,
                    Map.of("name", "cable_orm_" + strategy.replace('-', '_'),
                            "app-tables", String.valueOf(strategy.equals("validate")))));
        }
    }
}
