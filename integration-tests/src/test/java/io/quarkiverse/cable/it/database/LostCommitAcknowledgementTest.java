package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

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
 * A commit that reaches the database but whose acknowledgement is lost (the connection dies between COMMIT and its
 * reply, as in a database fast shutdown) must not be stored twice when the writer retries; and when the database
 * stays away past the retry window, the broadcast fails with CommitUnknown (it may be stored), not StorageFailed
 * (it is not). The connections here are the real pooled ones; only commit(), the message INSERT and getConnection()
 * are wrapped to fail on demand.
 */
@QuarkusTest
public class LostCommitAcknowledgementTest {

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void aRetriedBatchWhoseCommitSucceededIsNotStoredAgain() throws Exception {
        Faults faults = new Faults();
        CableEngine node = node(faults);
        CableStats stats = node.stats();
        node.start();
        String channel = Channels.unique("lost-ack");
        Collector collector = new Collector();
        try (Subscription subscription = node.subscribe(channel, collector)) {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            node.broadcast(channel, "before").toCompletableFuture().get(30, TimeUnit.SECONDS);

            faults.loseNextAcknowledgement.set(true);
            node.broadcast(channel, "acknowledgement lost").toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertThat(faults.loseNextAcknowledgement).as("the commit's acknowledgement was lost once").isFalse();
            assertThat(stats.failures(Failure.WRITE_RETRY)).isEqualTo(1);

            node.broadcast(channel, "after").toCompletableFuture().get(30, TimeUnit.SECONDS);
            collector.awaitCount(3);
            assertThat(collector.texts()).containsExactly("before", "acknowledgement lost", "after");
            assertThat(Jdbc.storedMessages(dataSource, channel)).isEqualTo(3);
        } finally {
            node.stop();
        }
    }

    @Test
    void aCommitCutOffWhileTheDatabaseStaysAwayFailsWithCommitUnknownAndIsDeliveredOnce() throws Exception {
        Faults faults = new Faults();
        CableEngine node = node(faults, "quarkus.cable.writer.retry-timeout", "300ms");
        node.start();
        String channel = Channels.unique("commit-unknown");
        Collector collector = new Collector();
        try (Subscription subscription = node.subscribe(channel, collector)) {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            node.broadcast(channel, "before").toCompletableFuture().get(30, TimeUnit.SECONDS);

            faults.loseNextAcknowledgement.set(true);
            faults.awayAfterFault.set(true);
            assertThatThrownBy(() -> node.broadcast(channel, "cut off").toCompletableFuture().get(30, TimeUnit.SECONDS))
                    .cause().isInstanceOf(CableException.CommitUnknown.class)
                    .hasMessageContaining("quarkus.cable.writer.retry-timeout");
            faults.away.set(false);

            node.broadcast(channel, "after").toCompletableFuture().get(30, TimeUnit.SECONDS);
            collector.awaitCount(3);
            assertThat(collector.texts()).as("it was stored, so it is delivered, once and in order")
                    .containsExactly("before", "cut off", "after");
            assertThat(Jdbc.storedMessages(dataSource, channel)).isEqualTo(3);
        } finally {
            node.stop();
        }
    }

    @Test
    void aBatchCutOffBeforeItsCommitFailsWithStorageFailedAndIsDeliveredToNobody() throws Exception {
        Faults faults = new Faults();
        CableEngine node = node(faults, "quarkus.cable.writer.retry-timeout", "300ms");
        node.start();
        String channel = Channels.unique("storage-failed");
        Collector collector = new Collector();
        try (Subscription subscription = node.subscribe(channel, collector)) {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            node.broadcast(channel, "before").toCompletableFuture().get(30, TimeUnit.SECONDS);

            faults.failNextInsert.set(true);
            faults.awayAfterFault.set(true);
            assertThatThrownBy(() -> node.broadcast(channel, "not stored").toCompletableFuture().get(30,
                    TimeUnit.SECONDS)).cause().isInstanceOf(CableException.StorageFailed.class);
            faults.away.set(false);

            node.broadcast(channel, "after").toCompletableFuture().get(30, TimeUnit.SECONDS);
            collector.awaitCount(2);
            assertThat(collector.texts()).containsExactly("before", "after");
            assertThat(Jdbc.storedMessages(dataSource, channel)).isEqualTo(2);
        } finally {
            node.stop();
        }
    }

    /** A second cable node on the test's datasource, seen through {@code faults}. */
    private CableEngine node(Faults faults, String... config) {
        DataSource flaky = faults.wrap(dataSource);
        return DatabaseNodes.node("faults", () -> flaky, SqlDialect.forDbKind(dbKind), CableConfigs.with(config));
    }

    /** Switches for the wrapped datasource; each fault fires once. */
    private static final class Faults {
        /** The writer's next commit() commits, then throws as if the reply never came. */
        final AtomicBoolean loseNextAcknowledgement = new AtomicBoolean();
        /** The next INSERT into cable_messages throws before anything is written (the writer's, never the poller's). */
        final AtomicBoolean failNextInsert = new AtomicBoolean();
        /** When a fault fires, the database goes away: getConnection() throws until {@link #away} is cleared. */
        final AtomicBoolean awayAfterFault = new AtomicBoolean();
        final AtomicBoolean away = new AtomicBoolean();

        DataSource wrap(DataSource real) {
            return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
                    new Class<?>[] { DataSource.class }, (proxy, method, args) -> {
                        if (method.getName().equals("getConnection") && away.get()) {
                            throw new SQLTransientConnectionException("simulated: database unreachable");
                        }
                        Object result = Jdbc.call(real, method, args);
                        return method.getName().equals("getConnection") ? wrap((Connection) result) : result;
                    });
        }

        private Connection wrap(Connection connection) {
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] { Connection.class }, (proxy, method, args) -> {
                        // The writer's statement that inserts the messages (on PostgreSQL it also upserts the channels,
                        // so it starts with WITH).
                        if (method.getName().equals("prepareStatement")
                                && args[0].toString().contains("INSERT INTO cable_messages")
                                && failNextInsert.compareAndSet(true, false)) {
                            goAwayIfAsked();
                            throw new SQLTransientConnectionException("simulated: connection reset before INSERT");
                        }
                        Object value = Jdbc.call(connection, method, args);
                        if (method.getName().equals("commit") && Jdbc.onTheWriter()
                                && loseNextAcknowledgement.compareAndSet(true, false)) {
                            goAwayIfAsked();
                            throw new SQLTransientConnectionException("simulated: connection reset after COMMIT");
                        }
                        return value;
                    });
        }

        private void goAwayIfAsked() {
            if (awayAfterFault.compareAndSet(true, false)) {
                away.set(true);
            }
        }
    }

}
