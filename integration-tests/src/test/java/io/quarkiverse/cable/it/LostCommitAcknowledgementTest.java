package io.quarkiverse.cable.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.runtime.CableEngine;
import io.quarkiverse.cable.runtime.CableStats;
import io.quarkiverse.cable.runtime.DatabaseTransport;
import io.quarkiverse.cable.runtime.config.CableSettings;
import io.quarkiverse.cable.runtime.store.SqlDialect;
import io.quarkiverse.cable.runtime.subscribers.SubscriberMap;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A commit that reaches the database but whose acknowledgement is lost (the connection dies between COMMIT and its
 * reply, as in a database fast shutdown) must not be stored twice when the writer retries. The connection here is the
 * real pooled one; only its commit() is wrapped to commit and then throw, once.
 */
@QuarkusTest
class LostCommitAcknowledgementTest {

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void aRetriedBatchWhoseCommitSucceededIsNotStoredAgain() throws Exception {
        AtomicBoolean loseNextAcknowledgement = new AtomicBoolean();
        DataSource flaky = losingAcknowledgements(dataSource, loseNextAcknowledgement);
        CableSettings settings = CableSettings.defaults();
        SubscriberMap subscribers = new SubscriberMap();
        CableStats stats = new CableStats();
        CableEngine node = new CableEngine(new DatabaseTransport("lost-ack", () -> flaky,
                SqlDialect.forDbKind(dbKind), subscribers, settings, stats), subscribers, settings, stats);
        node.start();
        String channel = Channels.unique("lost-ack");
        Collector collector = new Collector();
        try (Subscription subscription = node.subscribe(channel, collector)) {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            node.broadcast(channel, "before").toCompletableFuture().get(30, TimeUnit.SECONDS);

            loseNextAcknowledgement.set(true);
            node.broadcast(channel, "acknowledgement lost").toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertThat(loseNextAcknowledgement).as("the commit's acknowledgement was lost once").isFalse();
            assertThat(stats.failures(CableStats.Failure.WRITE_RETRY)).isEqualTo(1);

            node.broadcast(channel, "after").toCompletableFuture().get(30, TimeUnit.SECONDS);
            collector.awaitCount(3);
            assertThat(collector.texts()).containsExactly("before", "acknowledgement lost", "after");
            assertThat(rowsOf(channel)).isEqualTo(3);
        } finally {
            node.stop();
        }
    }

    private long rowsOf(String channel) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement count = connection
                        .prepareStatement("SELECT count(*) FROM cable_messages WHERE channel = ?")) {
            count.setString(1, channel);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** Connections whose commit() commits and then, when asked to, throws as if the reply never came. */
    private static DataSource losingAcknowledgements(DataSource real, AtomicBoolean loseNext) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] { DataSource.class },
                (proxy, method, args) -> {
                    Object result = invoke(real, method, args);
                    if (!method.getName().equals("getConnection")) {
                        return result;
                    }
                    Connection connection = (Connection) result;
                    return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] { Connection.class },
                            (c, m, a) -> {
                                Object value = invoke(connection, m, a);
                                if (m.getName().equals("commit") && loseNext.compareAndSet(true, false)) {
                                    throw new SQLTransientConnectionException("simulated: connection reset after COMMIT");
                                }
                                return value;
                            });
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
