package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLTransactionRollbackException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.CableConfigs;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseNodes;
import io.quarkiverse.cable.it.Jdbc;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A writer batch that loses a conflict with another transaction at COMMIT, as a Galera certification failure does
 * (MariaDB error 1213, SQLState 40001, the transaction rolled back whole), is re-run from its first statement: stored
 * once, counted as a conflict, not as a failing attempt; and past {@code max-conflict-retries} it fails with
 * StorageFailed. The real cluster case is {@code topology.GaleraIT}; here only commit() is wrapped, on the real pooled
 * connections, to roll back and answer as Galera does.
 */
@QuarkusTest
public class WriterConflictRetryTest {

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void aBatchThatLosesConflictsIsRerunAndStoredOnce() throws Exception {
        AtomicInteger conflicts = new AtomicInteger();
        CableEngine node = node(conflicts);
        CableStats stats = node.stats();
        node.start();
        String channel = Channels.unique("conflict");
        Collector collector = new Collector();
        try (Subscription subscription = node.subscribe(channel, collector)) {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            node.broadcast(channel, "before").toCompletableFuture().get(30, TimeUnit.SECONDS);

            conflicts.set(3);
            node.broadcast(channel, "lost three conflicts").toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertThat(conflicts).as("every conflict fired").hasValue(0);
            assertThat(stats.conflictRetries()).isEqualTo(3);
            assertThat(stats.failures(Failure.WRITE_RETRY)).as("routine, not a failing attempt").isZero();

            node.broadcast(channel, "after").toCompletableFuture().get(30, TimeUnit.SECONDS);
            collector.awaitCount(3);
            assertThat(collector.texts()).containsExactly("before", "lost three conflicts", "after");
            assertThat(Jdbc.storedMessages(dataSource, channel)).isEqualTo(3);
        } finally {
            node.stop();
        }
    }

    @Test
    void conflictsBeyondTheBoundFailTheBatchWithStorageFailed() throws Exception {
        AtomicInteger conflicts = new AtomicInteger();
        CableEngine node = node(conflicts, "quarkus.cable.writer.max-conflict-retries", "2");
        node.start();
        String channel = Channels.unique("conflict-bound");
        Collector collector = new Collector();
        try (Subscription subscription = node.subscribe(channel, collector)) {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            conflicts.set(3);
            assertThatThrownBy(() -> node.broadcast(channel, "lost").toCompletableFuture().get(30, TimeUnit.SECONDS))
                    .cause().isInstanceOf(CableException.StorageFailed.class)
                    .hasMessageContaining("max-conflict-retries");
            assertThat(node.stats().conflictRetries()).isEqualTo(2);

            node.broadcast(channel, "after").toCompletableFuture().get(30, TimeUnit.SECONDS);
            collector.awaitCount(1);
            assertThat(collector.texts()).containsExactly("after");
            assertThat(Jdbc.storedMessages(dataSource, channel)).isEqualTo(1);
        } finally {
            node.stop();
        }
    }

    /** A second cable node on the test's datasource whose writer's next {@code conflicts} commits lose a conflict. */
    private CableEngine node(AtomicInteger conflicts, String... config) {
        DataSource losing = (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
                new Class<?>[] { DataSource.class }, (proxy, method, args) -> {
                    Object result = Jdbc.call(dataSource, method, args);
                    return method.getName().equals("getConnection") ? losingCommits((Connection) result, conflicts)
                            : result;
                });
        return DatabaseNodes.node("conflicts", () -> losing, SqlDialect.forDbKind(dbKind),
                CableConfigs.with(config));
    }

    private static Connection losingCommits(Connection connection, AtomicInteger conflicts) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] { Connection.class }, (proxy, method, args) -> {
                    if (method.getName().equals("commit") && Jdbc.onTheWriter()
                            && conflicts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        // What the loser of a certification conflict sees: nothing of its transaction is stored.
                        connection.rollback();
                        throw new SQLTransactionRollbackException(
                                "simulated: Deadlock found when trying to get lock; try restarting transaction",
                                "40001", 1213);
                    }
                    return Jdbc.call(connection, method, args);
                });
    }

}
