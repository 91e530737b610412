package io.quarkiverse.cable.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableException.HistoryUnavailable.Reason;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.CableConfigs;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseNodes;
import io.quarkiverse.cable.it.Jdbc;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Replays on the real database under their bounds: read in pages (a page of 7 rows here), a reconnect storm of one
 * channel from one position read once rather than once per client, and reads beyond the node's share of the pool
 * (one here) and its queue (one) refused as {@code busy}, while every admitted one replays exactly.
 */
@OncePerServer
@QuarkusTest
public class ReplayAdmissionTest {

    private static final int MESSAGES = 60;

    @Inject
    Cable cable;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    private CableEngine node(String name, String... properties) {
        return node(name, dataSource, properties);
    }

    private CableEngine node(String name, DataSource source, String... properties) {
        CableEngine node = DatabaseNodes.node(name, () -> source, SqlDialect.forDbKind(dbKind),
                CableConfigs.with(properties));
        node.start();
        return node;
    }

    /**
     * The test's datasource with every history read held until {@code gate} opens: a replay that has its share of the
     * pool keeps it, however fast the database or slow the machine.
     */
    private DataSource historyReadsHeldUntil(CountDownLatch gate) {
        String history = SqlDialect.forDbKind(dbKind).history();
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] { DataSource.class },
                (proxy, method, args) -> {
                    Object result = Jdbc.call(dataSource, method, args);
                    if (!method.getName().equals("getConnection")) {
                        return result;
                    }
                    Connection connection = (Connection) result;
                    return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] { Connection.class },
                            (c, call, callArgs) -> {
                                if (call.getName().equals("prepareStatement") && history.equals(callArgs[0])) {
                                    assertThat(gate.await(2, TimeUnit.MINUTES)).as("gate opened").isTrue();
                                }
                                return Jdbc.call(connection, call, callArgs);
                            });
                });
    }

    /** A channel with {@link #MESSAGES} stored messages; returns their epoch. */
    private String channelWithHistory(String channel) throws Exception {
        Collector stored = new Collector();
        try (Subscription watching = cable.subscribe(channel, stored)) {
            watching.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            List<CompletableFuture<Void>> commits = new ArrayList<>();
            for (int i = 1; i <= MESSAGES; i++) {
                commits.add(cable.broadcast(channel, "m" + i).toCompletableFuture());
            }
            CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            stored.awaitCount(MESSAGES);
            return stored.messages.get(0).epoch();
        }
    }

    @Test
    void aStormOfIdenticalReplaysIsFarFewerReadsAndEachReplaysExactlyInPages() throws Exception {
        String channel = Channels.unique("storm");
        String epoch = channelWithHistory(channel);
        // The first read is held until every replay has either started a read or joined one, so all 200 are in
        // flight together whatever the machine's speed: without the gate, a read could end before the next poll cycle
        // started more subscriptions, and how many reads that makes depends on the load (10 to 59 seen).
        CountDownLatch gate = new CountDownLatch(1);
        CableEngine node = node("replay-storm", historyReadsHeldUntil(gate),
                "quarkus.cable.history.max-concurrent-replays", "4", "quarkus.cable.history.page-size", "7");
        try {
            int clients = 200;
            List<Collector> received = new ArrayList<>();
            List<Subscription> subscriptions = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                Collector collector = new Collector();
                received.add(collector);
                subscriptions.add(node.subscribe(channel, new StreamPosition(epoch, 0), collector));
            }
            await().atMost(Duration.ofMinutes(2))
                    .until(() -> node.stats().historyReads() + node.stats().replaysCoalesced() == clients);
            gate.countDown();
            List<String> expected = IntStream.rangeClosed(1, MESSAGES).mapToObj(i -> "m" + i).toList();
            for (int i = 0; i < clients; i++) {
                subscriptions.get(i).confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
                assertThat(received.get(i).awaitCount(MESSAGES).texts()).as("client " + i).isEqualTo(expected);
            }
            long reads = node.stats().historyReads();
            assertThat(reads + node.stats().replaysCoalesced()).isEqualTo(clients);
            // Identical reads share one while it is in flight: one read per starting line. The line is the newest
            // committed id when a subscription starts, the same for all of them unless something else commits while
            // they subscribe (nothing in this test; another test's presence leave could), hence a small bound.
            assertThat(reads).as("history reads for %d identical replays", clients).isLessThanOrEqualTo(3);
            assertThat(node.stats().replaysServed()).isEqualTo(clients);
            subscriptions.forEach(Subscription::close);
        } finally {
            node.stop();
        }
    }

    @Test
    void replaysBeyondTheShareAndTheQueueAreRefusedAsBusyAndTheOthersReplayExactly() throws Exception {
        String channel = Channels.unique("busy");
        String epoch = channelWithHistory(channel);
        CountDownLatch gate = new CountDownLatch(1);
        CableEngine node = node("replay-busy", historyReadsHeldUntil(gate),
                "quarkus.cable.history.max-concurrent-replays", "1", "quarkus.cable.history.max-queued-replays", "1");
        try {
            int clients = 40;
            List<Collector> received = new ArrayList<>();
            List<Subscription> subscriptions = new ArrayList<>();
            // Distinct positions: no two reads are identical, so none is coalesced.
            for (int i = 0; i < clients; i++) {
                Collector collector = new Collector();
                received.add(collector);
                subscriptions.add(node.subscribe(channel, new StreamPosition(epoch, i), collector));
            }
            // The first read holds the one share and a second waits for it: every other replay is refused at once.
            // (The waiting one may be refused too, if its queue timeout passes first.)
            await().atMost(Duration.ofMinutes(2))
                    .until(() -> node.stats().replaysRejected(Reason.BUSY) >= clients - 2);
            gate.countDown();
            int busy = 0;
            for (int i = 0; i < clients; i++) {
                try {
                    subscriptions.get(i).confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
                    List<String> expected = IntStream.rangeClosed(i + 1, MESSAGES).mapToObj(n -> "m" + n).toList();
                    assertThat(received.get(i).awaitCount(MESSAGES - i).texts()).isEqualTo(expected);
                } catch (ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOfSatisfying(CableException.HistoryUnavailable.class,
                            refused -> assertThat(refused.reason()).isEqualTo(Reason.BUSY));
                    assertThat(received.get(i).messages).as("a refused replay replays nothing").isEmpty();
                    busy++;
                }
            }
            assertThat(busy).as("replays refused beyond one running and one waiting").isBetween(clients - 2, clients - 1);
            assertThat(node.stats().replaysRejected(Reason.BUSY)).isEqualTo(busy);
            assertThat(node.stats().replaysServed()).isEqualTo(clients - busy);
            subscriptions.forEach(Subscription::close);
        } finally {
            node.stop();
        }
    }
}
