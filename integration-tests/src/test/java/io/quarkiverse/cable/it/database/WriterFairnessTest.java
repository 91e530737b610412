package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.CableConfigs;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.database.BatchWriter;
import io.quarkiverse.cable.runtime.database.MessageStore;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 24, item 8: a flood on one channel cannot make other channels' broadcasts fail. Before the share, one channel
 * could fill the whole writer queue, and every other channel's broadcast then failed with {@code QueueFull}.
 * <p>
 * Deterministic: a writer of its own (on the application's datasource) is given everything before it starts, so
 * nothing leaves the queue while the test fills it. Queue of 100, the default share (a quarter: 25): the flood gets
 * 25 in and 175 refused with the channel's share; two other channels then still get all of theirs in; once the
 * writer starts, every accepted broadcast is stored and delivered, in order. A second writer with the share turned off
 * (its value at the queue's capacity) shows the old behaviour the test guards against.
 */
@QuarkusTest
public class WriterFairnessTest {

    private static final int CAPACITY = 100;
    private static final int SHARE = CAPACITY / 4;

    @Inject
    Cable cable;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void aFloodedChannelFailsItsOwnBroadcastsAndLeavesRoomForOthers() throws Exception {
        String flood = Channels.unique("fair-flood");
        List<String> quiet = List.of(Channels.unique("fair-quiet-a"), Channels.unique("fair-quiet-b"));
        Collector floodCollector = new Collector();
        List<Collector> quietCollectors = List.of(new Collector(), new Collector());
        BatchWriter writer = writer(CableConfigs.with("quarkus.cable.writer.queue-capacity", String.valueOf(CAPACITY)));
        try (Subscription floodSubscription = cable.subscribe(flood, floodCollector);
                Subscription a = cable.subscribe(quiet.get(0), quietCollectors.get(0));
                Subscription b = cable.subscribe(quiet.get(1), quietCollectors.get(1))) {
            for (Subscription subscription : List.of(floodSubscription, a, b)) {
                subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            }
            List<CompletableFuture<Void>> floodStages = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                floodStages.add(writer.submit(message(flood, "f" + i)));
            }
            List<CompletableFuture<Void>> quietStages = new ArrayList<>();
            for (int i = 0; i < SHARE; i++) {
                for (String channel : quiet) {
                    quietStages.add(writer.submit(message(channel, "q" + i)));
                }
            }

            assertThat(floodStages.subList(0, SHARE)).as("the flood's share is queued").noneMatch(
                    CompletableFuture::isDone);
            for (CompletableFuture<Void> refused : floodStages.subList(SHARE, floodStages.size())) {
                assertThatThrownBy(() -> refused.get(60, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                        .cause().isInstanceOf(CableException.QueueFull.class)
                        .hasMessageContaining("this channel's share (" + SHARE)
                        // A flood makes thousands of these: each must not cost a stack trace (issue 45).
                        .satisfies(full -> assertThat(full.getStackTrace()).isEmpty());
            }
            assertThat(quietStages).as("other channels are not refused").noneMatch(CompletableFuture::isDone);
            assertThat(writer.queueDepth()).isEqualTo(3 * SHARE);

            writer.start("fairness-test");
            for (CompletableFuture<Void> stage : quietStages) {
                stage.get(60, TimeUnit.SECONDS);
            }
            for (CompletableFuture<Void> stage : floodStages.subList(0, SHARE)) {
                stage.get(60, TimeUnit.SECONDS);
            }
            List<String> expectedQuiet = new ArrayList<>();
            for (int i = 0; i < SHARE; i++) {
                expectedQuiet.add("q" + i);
            }
            for (Collector collector : quietCollectors) {
                assertThat(collector.awaitCount(SHARE).messages).extracting(CableMessage::text)
                        .containsExactlyElementsOf(expectedQuiet);
            }
            List<String> expectedFlood = new ArrayList<>();
            for (int i = 0; i < SHARE; i++) {
                expectedFlood.add("f" + i);
            }
            assertThat(floodCollector.awaitCount(SHARE).messages).extracting(CableMessage::text)
                    .containsExactlyElementsOf(expectedFlood);

            // Taken into a batch, a broadcast no longer counts: the channel has its whole share again.
            List<CompletableFuture<Void>> again = new ArrayList<>();
            for (int i = 0; i < SHARE; i++) {
                again.add(writer.submit(message(flood, "g" + i)));
            }
            for (CompletableFuture<Void> stage : again) {
                stage.get(60, TimeUnit.SECONDS);
            }
        } finally {
            writer.stop(30_000);
        }
    }

    @Test
    void withoutTheShareOneChannelFillsTheQueue() {
        String flood = Channels.unique("unfair-flood");
        BatchWriter writer = writer(CableConfigs.with("quarkus.cable.writer.queue-capacity", String.valueOf(CAPACITY),
                "quarkus.cable.writer.max-queued-per-channel", String.valueOf(CAPACITY)));
        try {
            for (int i = 0; i < CAPACITY; i++) {
                assertThat(writer.submit(message(flood, "f" + i))).isNotDone();
            }
            CompletableFuture<Void> other = writer.submit(message(Channels.unique("unfair-quiet"), "q"));
            assertThatThrownBy(() -> other.get(60, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(CableException.QueueFull.class).hasMessageContaining("queue is full")
                    .satisfies(full -> assertThat(full.getStackTrace()).isEmpty());
        } finally {
            writer.stop(30_000);
        }
    }

    private BatchWriter writer(io.quarkiverse.cable.runtime.core.CableRuntimeConfig config) {
        return new BatchWriter(new MessageStore(dataSource, SqlDialect.forDbKind(dbKind)), config, new CableStats(),
                rows -> {
                });
    }

    private static OutgoingMessage message(String channel, String text) {
        return new OutgoingMessage(channel, ChannelHash.of(channel), text.getBytes(StandardCharsets.UTF_8), false,
                System.nanoTime(), new CompletableFuture<>());
    }
}
