package io.quarkiverse.cable.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableException.HistoryUnavailable.Reason;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.CableConfigs;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseNodes;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.database.MessageStore;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkus.test.junit.QuarkusTest;

/**
 * {@code Cable.subscribe(channel, after, listener)}: replays exactly what was committed after a position, then goes
 * live, with no gap, duplicate or reordering at the seam, while writers on two nodes broadcast and a transaction
 * holding the writers' lock commits after the replay was read. History that is not all there is refused with the
 * reason and nothing replayed.
 */
@QuarkusTest
public class RecoverySubscribeTest {

    private static final int SMALL_MAX_REPLAY = 50;

    @Inject
    Cable nodeOne;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    CableEngine nodeTwo;

    @BeforeEach
    void startNodeTwo() {
        nodeTwo = startNode("node-two", 1000);
    }

    private CableEngine startNode(String name, int maxReplay) {
        CableEngine node = DatabaseNodes.node(name, () -> dataSource, SqlDialect.forDbKind(dbKind),
                CableConfigs.with("quarkus.cable.history.max-replay", Integer.toString(maxReplay)));
        node.start();
        return node;
    }

    @AfterEach
    void stopNodeTwo() {
        nodeTwo.stop();
    }

    @Test
    void replayThenLiveExactlyOnceUnderTwoNodeWritersAndALateCommit() throws Exception {
        String channel = Channels.unique("recover");
        Collector reference = new Collector();
        ExecutorService producers = Executors.newFixedThreadPool(8);
        MessageStore store = new MessageStore(dataSource, SqlDialect.forDbKind(dbKind));
        try (Subscription all = nodeOne.subscribe(channel, reference)) {
            all.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            for (int i = 0; i < 100; i++) {
                (i % 2 == 0 ? nodeOne : nodeTwo).broadcast(channel, "first|" + i);
            }
            reference.awaitCount(100);
            assertConsecutivePositions(reference.messages, 1);
            StreamPosition fromOne = StreamPosition.of(reference.messages.get(39));
            StreamPosition fromTwo = StreamPosition.of(reference.messages.get(79));

            // Writers on both nodes, 4 threads each, broadcasting throughout the recoveries.
            List<Future<List<CompletableFuture<Void>>>> producing = new ArrayList<>();
            int node = 0;
            for (Cable cable : List.of(nodeOne, nodeTwo)) {
                for (int t = 0; t < 4; t++) {
                    String producer = "n" + node + "t" + t;
                    producing.add(producers.submit(() -> {
                        List<CompletableFuture<Void>> commits = new ArrayList<>();
                        for (int seq = 0; seq < 150; seq++) {
                            commits.add(cable.broadcast(channel, producer + "|" + seq).toCompletableFuture());
                        }
                        return commits;
                    }));
                }
                node++;
            }
            reference.awaitCount(150);

            // A transaction takes the writers' lock and writes, and commits only after both replays were read: its
            // message and every message queued behind it must arrive live, after the replay, once.
            // The recoveries run on nodes of the test's own whose replay limit exceeds everything broadcast here
            // (a fast database commits all the writers' messages before the recoveries start).
            CableEngine recoveringOne = startNode("node-recovering", 5000);
            CableEngine recoveringTwo = startNode("node-recovering-two", 5000);
            Collector recoveredOnOne = new Collector();
            Collector recoveredOnTwo = new Collector();
            Subscription one;
            Subscription two;
            try (Connection held = dataSource.getConnection()) {
                held.setAutoCommit(false);
                // Written as the writer writes (with a receipt), by a writer id of the test's own.
                store.writeWithReceipt(held, List.of(new OutgoingMessage(channel, ChannelHash.of(channel),
                        "late".getBytes(), false, System.nanoTime(), new CompletableFuture<>())), Instant.now(),
                        UUID.randomUUID().toString(), 1, false);
                one = recoveringOne.subscribe(channel, fromOne, recoveredOnOne);
                two = recoveringTwo.subscribe(channel, fromTwo, recoveredOnTwo);
                one.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
                two.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
                assertThat(recoveredOnOne.texts()).as("nothing committed late is replayed").doesNotContain("late");
                held.commit();
            }
            for (Future<List<CompletableFuture<Void>>> future : producing) {
                CompletableFuture.allOf(future.get(60, TimeUnit.SECONDS).toArray(CompletableFuture[]::new))
                        .get(120, TimeUnit.SECONDS);
            }
            int total = 100 + 8 * 150 + 1;
            reference.awaitCount(total);
            recoveredOnOne.awaitCount(total - 40);
            recoveredOnTwo.awaitCount(total - 80);
            assertThat(reference.texts()).contains("late").doesNotHaveDuplicates();
            assertConsecutivePositions(reference.messages, 1);
            assertThat(recoveredOnOne.texts()).isEqualTo(reference.texts().subList(40, total));
            assertThat(recoveredOnTwo.texts()).isEqualTo(reference.texts().subList(80, total));
            assertConsecutivePositions(recoveredOnOne.messages, 41);
            assertConsecutivePositions(recoveredOnTwo.messages, 81);
            assertThat(recoveredOnOne.messages).extracting(CableMessage::epoch).containsOnly(fromOne.epoch());
            assertThat(recoveredOnTwo.messages).extracting(CableMessage::epoch).containsOnly(fromOne.epoch());
            one.close();
            two.close();
            recoveringOne.stop();
            recoveringTwo.stop();
        } finally {
            producers.shutdownNow();
        }
    }

    @Test
    void positionEqualToTheNewestReplaysNothingAndGoesLive() throws Exception {
        String channel = Channels.unique("recover-newest");
        List<CableMessage> sent = broadcastAndCollect(channel, 5);
        long servedBefore = engine.stats().replaysServed();
        Collector recovered = new Collector();
        try (Subscription subscription = nodeOne.subscribe(channel, StreamPosition.of(sent.get(4)), recovered)) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            nodeTwo.broadcast(channel, "live").toCompletableFuture().get(60, TimeUnit.SECONDS);
            recovered.awaitCount(1);
            assertThat(recovered.texts()).containsExactly("live");
            assertThat(recovered.messages.get(0).position()).isEqualTo(6);
            assertThat(engine.stats().replaysServed()).isEqualTo(servedBefore + 1);
        }
    }

    @Test
    void anOtherEpochIsRefused() throws Exception {
        String channel = Channels.unique("recover-epoch");
        broadcastAndCollect(channel, 3);
        assertRefused(nodeOne, channel, new StreamPosition("not-this-epoch", 1), Reason.EPOCH_CHANGED);
    }

    @Test
    void aPositionThatNeverExistedIsRefused() throws Exception {
        String channel = Channels.unique("recover-beyond");
        List<CableMessage> sent = broadcastAndCollect(channel, 3);
        assertRefused(nodeOne, channel, new StreamPosition(sent.get(0).epoch(), 4), Reason.OFFSET_BEYOND_NEWEST);
    }

    @Test
    void aChannelWithoutHistoryIsRefused() throws Exception {
        assertRefused(nodeOne, Channels.unique("recover-unknown"), new StreamPosition("e", 0), Reason.UNKNOWN_STREAM);
    }

    @Test
    void trimmedHistoryIsRefusedAndNothingReplayed() throws Exception {
        String channel = Channels.unique("recover-trimmed");
        List<CableMessage> sent = broadcastAndCollect(channel, 6);
        // As trimming would: message 3 is gone (the oldest-first order of trimming can differ from positions).
        execute("DELETE FROM cable_messages WHERE id = " + sent.get(2).id());
        assertRefused(nodeOne, channel, StreamPosition.of(sent.get(1)), Reason.TRIMMED);
        // After the hole, recovery is exact again (the refusal check broadcast two more: positions 7 and 8).
        Collector recovered = new Collector();
        try (Subscription subscription = nodeOne.subscribe(channel, StreamPosition.of(sent.get(2)), recovered)) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            recovered.awaitCount(5);
            assertThat(recovered.messages).extracting(CableMessage::position).containsExactly(4L, 5L, 6L, 7L, 8L);
        }
        // The newest message trimmed (clock skew between writers): the replay would be short, so it is refused.
        execute("DELETE FROM cable_messages WHERE id = " + recovered.messages.get(4).id());
        assertRefused(nodeOne, channel, StreamPosition.of(recovered.messages.get(1)), Reason.TRIMMED);
    }

    @Test
    void moreThanTheReplayLimitIsRefused() throws Exception {
        String channel = Channels.unique("recover-large");
        List<CableMessage> sent = broadcastAndCollect(channel, SMALL_MAX_REPLAY + 2);
        CableEngine small = startNode("node-small", SMALL_MAX_REPLAY);
        try {
            // Exactly the limit is served.
            Collector recovered = new Collector();
            try (Subscription subscription = small.subscribe(channel, StreamPosition.of(sent.get(1)), recovered)) {
                subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
                recovered.awaitCount(SMALL_MAX_REPLAY);
                assertThat(recovered.texts()).isEqualTo(sent.subList(2, sent.size()).stream().map(CableMessage::text)
                        .toList());
            }
            assertRefused(small, channel, StreamPosition.of(sent.get(0)), Reason.TOO_LARGE);
        } finally {
            small.stop();
        }
    }

    private void assertRefused(Cable cable, String channel, StreamPosition after, Reason reason) throws Exception {
        CableStats stats = cable == nodeOne ? engine.stats() : ((CableEngine) cable).stats();
        long before = stats.replaysRejected(reason);
        Collector recovered = new Collector();
        Subscription subscription = cable.subscribe(channel, after, recovered);
        assertThatThrownBy(() -> subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOfSatisfying(CableException.HistoryUnavailable.class,
                        e -> assertThat(e.reason()).isEqualTo(reason));
        assertThat(subscription.closed().toCompletableFuture()).isCompletedExceptionally();
        assertThat(stats.replaysRejected(reason)).isEqualTo(before + 1);
        // Nothing partial, and nothing later either: the subscription is over.
        cable.broadcast(channel, "after refusal").toCompletableFuture().get(60, TimeUnit.SECONDS);
        Collector witness = new Collector();
        try (Subscription check = cable.subscribe(channel, witness)) {
            check.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.broadcast(channel, "witness").toCompletableFuture().get(60, TimeUnit.SECONDS);
            witness.awaitCount(1);
        }
        assertThat(recovered.messages).isEmpty();
    }

    /** Broadcasts {@code count} messages and returns them as a subscriber received them (with positions). */
    private List<CableMessage> broadcastAndCollect(String channel, int count) throws Exception {
        Collector collector = new Collector();
        try (Subscription subscription = nodeOne.subscribe(channel, collector)) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            for (int i = 1; i <= count; i++) {
                nodeOne.broadcast(channel, "m" + i).toCompletableFuture().get(60, TimeUnit.SECONDS);
            }
            collector.awaitCount(count);
        }
        assertConsecutivePositions(collector.messages, 1);
        return List.copyOf(collector.messages);
    }

    private static void assertConsecutivePositions(List<CableMessage> messages, long first) {
        long expected = first;
        for (CableMessage message : messages) {
            assertThat(message.position()).as("position of %s", message.text()).isEqualTo(expected++);
            assertThat(message.epoch()).isNotNull().isEqualTo(messages.get(0).epoch());
        }
    }

    private void execute(String statement) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement sql = connection.createStatement()) {
            sql.executeUpdate(statement);
        }
    }

}
