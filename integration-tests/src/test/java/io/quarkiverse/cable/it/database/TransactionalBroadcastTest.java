package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.todo.TodoItem;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Broadcasts inside a JTA transaction (issue 14, item 1), on whichever database the profile selects: delivered once
 * if and only if the transaction commits, invisible until then while other broadcasts keep flowing, in causal
 * per-channel order; blocking on the stage inside the transaction is refused.
 */
@QuarkusTest
public class TransactionalBroadcastTest {

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Test
    void commitDeliversOnce() throws Exception {
        String channel = Channels.unique("tx-commit");
        Collector collector = new Collector();
        try (Subscription subscription = subscribe(channel, collector)) {
            long inTransactionBefore = engine.stats().transactionalBroadcasts();
            long afterCommitBefore = engine.stats().afterCommitBroadcasts();
            AtomicReference<CompletionStage<Void>> stage = new AtomicReference<>();
            QuarkusTransaction.requiringNew().run(() -> {
                save("commit");
                stage.set(cable.broadcast(channel, "saved"));
            });
            stage.get().toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.broadcast(channel, "marker").toCompletableFuture().get(60, TimeUnit.SECONDS);
            collector.awaitCount(2);
            assertThat(collector.texts()).containsExactly("saved", "marker");
            // Stored on the transaction's own connection (the item is flushed at commit, before the cable writes).
            assertThat(engine.stats().transactionalBroadcasts()).isEqualTo(inTransactionBefore + 1);
            assertThat(engine.stats().afterCommitBroadcasts()).isEqualTo(afterCommitBefore);
        }
    }

    @Test
    void rollbackDeliversNothing() throws Exception {
        String channel = Channels.unique("tx-rollback");
        Collector collector = new Collector();
        try (Subscription subscription = subscribe(channel, collector)) {
            QuarkusTransaction.begin();
            save("rolled back");
            CompletableFuture<Void> stage = cable.broadcast(channel, "never").toCompletableFuture();
            QuarkusTransaction.rollback();
            assertThatThrownBy(() -> stage.get(60, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(CableException.RolledBack.class);

            // A broadcast made after the rollback is the first and only thing delivered.
            cable.broadcast(channel, "marker").toCompletableFuture().get(60, TimeUnit.SECONDS);
            collector.awaitCount(1);
            assertThat(collector.texts()).containsExactly("marker");
        }
    }

    @Test
    void invisibleUntilCommitWhileOtherBroadcastsFlow() throws Exception {
        String channel = Channels.unique("tx-late");
        Collector collector = new Collector();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (Subscription subscription = subscribe(channel, collector)) {
            long inTransactionBefore = engine.stats().transactionalBroadcasts();
            QuarkusTransaction.begin();
            save("late");
            CompletableFuture<Void> inTransaction = cable.broadcast(channel, "in-tx").toCompletableFuture();

            // While the transaction stays open, broadcasts from elsewhere commit and are delivered: the cable's lock
            // is not held by the open transaction. Several rounds, each delivered before the next, so the poller
            // has read past the point where an early write of "in-tx" would have shown.
            for (int round = 0; round < 3; round++) {
                String payload = "other-" + round;
                other.submit(() -> cable.broadcast(channel, payload).toCompletableFuture().get(60, TimeUnit.SECONDS))
                        .get(60, TimeUnit.SECONDS);
                collector.awaitCount(round + 1);
            }
            assertThat(collector.texts()).containsExactly("other-0", "other-1", "other-2");
            assertThat(inTransaction).isNotDone();

            QuarkusTransaction.commit();
            inTransaction.get(60, TimeUnit.SECONDS);
            collector.awaitCount(4);
            assertThat(collector.texts()).containsExactly("other-0", "other-1", "other-2", "in-tx");
            assertThat(collector.messages.get(3).id()).isGreaterThan(collector.messages.get(2).id());
            assertThat(engine.stats().transactionalBroadcasts()).isEqualTo(inTransactionBefore + 1);
        } finally {
            other.shutdownNow();
        }
    }

    /**
     * Causal order: per thread, each transaction begins after the previous one committed, and a plain broadcast
     * follows each commit. Every thread's messages arrive once each, in exactly that order, with ids rising.
     */
    @Test
    void causalPerChannelOrderUnderConcurrentTransactions() throws Exception {
        String channel = Channels.unique("tx-causal");
        int threads = 4;
        int rounds = 25;
        Collector collector = new Collector();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (Subscription subscription = subscribe(channel, collector)) {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String producer = "p" + t;
                running.add(pool.submit(() -> {
                    for (int round = 0; round < rounds; round++) {
                        String prefix = producer + "|" + round + "|";
                        QuarkusTransaction.requiringNew().run(() -> {
                            save(prefix);
                            cable.broadcast(channel, prefix + "a");
                            cable.broadcast(channel, prefix + "b");
                        });
                        cable.broadcast(channel, prefix + "c").toCompletableFuture().get(60, TimeUnit.SECONDS);
                    }
                    return null;
                }));
            }
            for (Future<?> future : running) {
                future.get(120, TimeUnit.SECONDS);
            }
            collector.awaitCount(threads * rounds * 3);
            Map<String, List<String>> byProducer = new HashMap<>();
            long lastId = 0;
            for (CableMessage message : collector.messages) {
                assertThat(message.id()).as("ids rise in delivery order").isGreaterThan(lastId);
                lastId = message.id();
                String text = message.text();
                byProducer.computeIfAbsent(text.substring(0, text.indexOf('|')), p -> new ArrayList<>()).add(text);
            }
            assertThat(collector.messages).hasSize(threads * rounds * 3);
            for (int t = 0; t < threads; t++) {
                List<String> expected = new ArrayList<>();
                for (int round = 0; round < rounds; round++) {
                    for (String part : List.of("a", "b", "c")) {
                        expected.add("p" + t + "|" + round + "|" + part);
                    }
                }
                assertThat(byProducer.get("p" + t)).as("producer p%d", t).containsExactlyElementsOf(expected);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void blockingOnTheStageInsideTheTransactionIsAnError() throws Exception {
        String channel = Channels.unique("tx-deadlock");
        Collector collector = new Collector();
        try (Subscription subscription = subscribe(channel, collector)) {
            QuarkusTransaction.begin();
            CompletableFuture<Void> stage;
            try {
                save("deadlock");
                stage = cable.broadcast(channel, "waited").toCompletableFuture();
                assertThatThrownBy(stage::join).isInstanceOf(IllegalStateException.class).hasMessageContaining("deadlock");
                assertThatThrownBy(() -> stage.get(60, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
                CompletableFuture<String> derived = stage.thenApply(ignored -> "derived").toCompletableFuture();
                assertThatThrownBy(derived::join).isInstanceOf(IllegalStateException.class);
            } finally {
                QuarkusTransaction.commit();
            }
            // After the commit the same stage can be waited for.
            stage.get(60, TimeUnit.SECONDS);
            collector.awaitCount(1);
            assertThat(collector.texts()).containsExactly("waited");
        }
    }

    @Test
    void withoutTransactionBroadcastsAtOnce() throws Exception {
        String channel = Channels.unique("tx-optout");
        Collector collector = new Collector();
        try (Subscription subscription = subscribe(channel, collector)) {
            QuarkusTransaction.begin();
            try {
                save("opt-out");
                // Waiting is fine here: this broadcast does not join the transaction.
                cable.withoutTransaction().broadcast(channel, "progress").toCompletableFuture().get(60, TimeUnit.SECONDS);
                collector.awaitCount(1);
            } finally {
                QuarkusTransaction.rollback();
            }
            cable.broadcast(channel, "marker").toCompletableFuture().get(60, TimeUnit.SECONDS);
            collector.awaitCount(2);
            assertThat(collector.texts()).containsExactly("progress", "marker");
        }
    }

    /** A transaction that never used the cable's datasource: sent after its commit (counted), nothing on rollback. */
    @Test
    void transactionWithoutTheCableDatasourceSendsAfterCommit() throws Exception {
        String channel = Channels.unique("tx-elsewhere");
        Collector collector = new Collector();
        try (Subscription subscription = subscribe(channel, collector)) {
            long before = engine.stats().afterCommitBroadcasts();
            QuarkusTransaction.begin();
            CompletableFuture<Void> rolledBack = cable.broadcast(channel, "never").toCompletableFuture();
            QuarkusTransaction.rollback();
            assertThatThrownBy(() -> rolledBack.get(60, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(CableException.RolledBack.class);

            QuarkusTransaction.begin();
            CompletableFuture<Void> committed = cable.broadcast(channel, "after-commit").toCompletableFuture();
            assertThat(committed).isNotDone();
            QuarkusTransaction.commit();
            committed.get(60, TimeUnit.SECONDS);
            collector.awaitCount(1);
            assertThat(collector.texts()).containsExactly("after-commit");
            assertThat(engine.stats().afterCommitBroadcasts()).isEqualTo(before + 1);
        }
    }

    private Subscription subscribe(String channel, Collector collector) throws Exception {
        Subscription subscription = cable.subscribe(channel, collector);
        subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
        return subscription;
    }

    /** Application data in the same transaction, on the cable's datasource. */
    private static void save(String title) {
        TodoItem item = new TodoItem();
        item.title = title;
        item.persist();
    }
}
