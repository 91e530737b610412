package io.quarkiverse.cable.it.nodes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseNodes;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Two nodes (the application's cable and a second, independent engine with its own writer and poller on the same
 * database), 8 broadcasting threads each, 20 channels. Every subscriber on either node receives every message of its
 * channel exactly once, each producer's messages in broadcast order, and all subscribers of a channel see the same
 * order.
 */
@QuarkusTest
@OncePerServer
public class TwoNodeStressTest {

    private static final int CHANNELS = 20;
    private static final int THREADS_PER_NODE = 8;
    private static final int MESSAGES_PER_THREAD = 400;

    @Inject
    Cable nodeOne;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CableRuntimeConfig config;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void everyMessageExactlyOnceInOrderAcrossNodes() throws Exception {
        CableEngine nodeTwo = DatabaseNodes.node("node-two", () -> dataSource, SqlDialect.forDbKind(dbKind), config);
        nodeTwo.start();
        String prefix = Channels.unique("stress");
        List<String> channels = new ArrayList<>();
        Map<String, List<Collector>> collectorsByChannel = new HashMap<>();
        List<Subscription> subscriptions = new ArrayList<>();
        List<Subscription> onNodeTwo = new ArrayList<>();
        ExecutorService producers = Executors.newFixedThreadPool(2 * THREADS_PER_NODE);
        try {
            for (int c = 0; c < CHANNELS; c++) {
                String channel = prefix + "-" + c;
                channels.add(channel);
                for (Cable node : List.of(nodeOne, nodeTwo)) {
                    Collector collector = new Collector();
                    collectorsByChannel.computeIfAbsent(channel, k -> new ArrayList<>()).add(collector);
                    Subscription subscription = node.subscribe(channel, collector);
                    subscriptions.add(subscription);
                    if (node == nodeTwo) {
                        onNodeTwo.add(subscription);
                    }
                }
            }
            for (Subscription subscription : subscriptions) {
                subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            }

            List<Future<List<CompletableFuture<Void>>>> producing = new ArrayList<>();
            int node = 0;
            for (Cable cable : List.of(nodeOne, nodeTwo)) {
                for (int t = 0; t < THREADS_PER_NODE; t++) {
                    String producer = "n" + node + "t" + t;
                    int offset = t;
                    producing.add(producers.submit(() -> {
                        List<CompletableFuture<Void>> commits = new ArrayList<>();
                        for (int seq = 0; seq < MESSAGES_PER_THREAD; seq++) {
                            String channel = channels.get((seq + offset) % CHANNELS);
                            commits.add(cable.broadcast(channel, producer + "|" + seq).toCompletableFuture());
                        }
                        return commits;
                    }));
                }
                node++;
            }
            for (Future<List<CompletableFuture<Void>>> future : producing) {
                CompletableFuture.allOf(future.get(60, TimeUnit.SECONDS).toArray(CompletableFuture[]::new))
                        .get(120, TimeUnit.SECONDS);
            }

            int expectedPerChannel = 2 * THREADS_PER_NODE * MESSAGES_PER_THREAD / CHANNELS;
            for (String channel : channels) {
                List<Collector> collectors = collectorsByChannel.get(channel);
                for (Collector collector : collectors) {
                    collector.awaitCount(expectedPerChannel);
                    assertExactlyOnceInProducerOrder(collector.messages, expectedPerChannel);
                }
                assertThat(collectors.get(1).texts()).as("both nodes see the same order")
                        .isEqualTo(collectors.get(0).texts());
            }
            nodeTwo.stop();
            for (Subscription subscription : onNodeTwo) {
                assertThat(subscription.closed().toCompletableFuture()).as("stopping a node ends its subscriptions")
                        .isCompletedExceptionally();
            }
        } finally {
            producers.shutdownNow();
            subscriptions.forEach(Subscription::close);
            nodeTwo.stop();
        }
    }

    private static void assertExactlyOnceInProducerOrder(List<CableMessage> messages, int expected) {
        assertThat(messages).hasSize(expected);
        assertThat(new HashSet<>(messages.stream().map(CableMessage::text).toList())).hasSize(expected);
        Map<String, Integer> lastSeqByProducer = new HashMap<>();
        long lastId = 0;
        for (CableMessage message : messages) {
            assertThat(message.id()).isGreaterThan(lastId);
            lastId = message.id();
            String[] parts = message.text().split("\\|");
            int seq = Integer.parseInt(parts[1]);
            Integer previous = lastSeqByProducer.put(parts[0], seq);
            if (previous != null) {
                assertThat(seq).as("order of producer %s", parts[0]).isGreaterThan(previous);
            }
        }
    }
}
