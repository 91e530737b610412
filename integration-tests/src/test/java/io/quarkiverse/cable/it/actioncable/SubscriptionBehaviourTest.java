package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.test.junit.QuarkusTest;

/** The behaviours of Solid Cable's adapter suite, on the database adapter. */
@QuarkusTest
public class SubscriptionBehaviourTest {

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Test
    void subscribeThenUnsubscribe() throws Exception {
        String channel = Channels.unique("unsubscribe");
        Collector collector = new Collector();
        Subscription subscription = confirmed(channel, collector);
        commit(channel, "one");
        collector.awaitCount(1);

        subscription.close();
        subscription.closed().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(engine.subscribersByChannel()).doesNotContainKey(channel);
        commit(channel, "two");
        // A later message on another subscription proves the poller has passed "two" already.
        Collector witness = new Collector();
        try (Subscription other = confirmed(channel, witness)) {
            commit(channel, "three");
            witness.awaitCount(1);
        }
        assertThat(collector.texts()).containsExactly("one");
    }

    @Test
    void basicBroadcastIsDeliveredOnceWithItsChannel() throws Exception {
        String channel = Channels.unique("basic");
        Collector collector = new Collector();
        try (Subscription subscription = confirmed(channel, collector)) {
            commit(channel, "hello");
            collector.awaitCount(1);
            CableMessage message = collector.messages.get(0);
            assertThat(message.channel()).isEqualTo(channel);
            assertThat(message.binary()).isFalse();
            assertThat(message.text()).isEqualTo("hello");
        }
    }

    @Test
    void binaryPayloadsKeepTheirBytes() throws Exception {
        String channel = Channels.unique("binary");
        Collector collector = new Collector();
        byte[] bytes = { 0, 1, 2, (byte) 0xFF, (byte) 0xFE };
        try (Subscription subscription = confirmed(channel, collector)) {
            cable.broadcast(channel, bytes).toCompletableFuture().get(30, TimeUnit.SECONDS);
            collector.awaitCount(1);
            assertThat(collector.messages.get(0).binary()).isTrue();
            assertThat(collector.messages.get(0).payload()).containsExactly(bytes);
        }
    }

    @Test
    void multipleChannelsAreDeliveredSeparately() throws Exception {
        String first = Channels.unique("multi-a");
        String second = Channels.unique("multi-b");
        Collector a = new Collector();
        Collector b = new Collector();
        try (Subscription sa = confirmed(first, a); Subscription sb = confirmed(second, b)) {
            commit(first, "for a");
            commit(second, "for b");
            a.awaitCount(1);
            b.awaitCount(1);
            commit(first, "last");
            a.awaitCount(2);
            assertThat(a.texts()).containsExactly("for a", "last");
            assertThat(b.texts()).containsExactly("for b");
        }
    }

    @Test
    void identicalSubscriptionsEachReceiveEveryMessageOnce() throws Exception {
        String channel = Channels.unique("identical");
        Collector first = new Collector();
        Collector second = new Collector();
        try (Subscription s1 = confirmed(channel, first); Subscription s2 = confirmed(channel, second)) {
            commit(channel, "a");
            commit(channel, "b");
            first.awaitCount(2);
            second.awaitCount(2);
            assertThat(first.texts()).containsExactly("a", "b");
            assertThat(second.texts()).containsExactly("a", "b");
        }
    }

    @Test
    void simultaneousSubscriptionsAreAllConfirmedAndServed() throws Exception {
        String channel = Channels.unique("simultaneous");
        List<Collector> collectors = IntStream.range(0, 50).mapToObj(i -> new Collector()).toList();
        List<Subscription> subscriptions = collectors.parallelStream()
                .map(collector -> cable.subscribe(channel, collector)).toList();
        CompletableFuture.allOf(subscriptions.stream().map(s -> s.confirmed().toCompletableFuture())
                .toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        try {
            commit(channel, "all");
            for (Collector collector : collectors) {
                assertThat(collector.awaitCount(1).texts()).containsExactly("all");
            }
        } finally {
            subscriptions.forEach(Subscription::close);
        }
    }

    @Test
    void channelFilteringKeepsOtherChannelsOut() throws Exception {
        String channel = Channels.unique("filtered");
        Collector collector = new Collector();
        try (Subscription subscription = confirmed(channel, collector)) {
            commit(channel + "-suffix", "not mine");
            commit(Channels.unique("elsewhere"), "not mine either");
            commit(channel, "mine");
            collector.awaitCount(1);
            assertThat(collector.texts()).containsExactly("mine");
        }
    }

    @Test
    void longChannelNamesWork() throws Exception {
        String channel = (Channels.unique("long") + "-" + "x".repeat(1024)).substring(0, 1024);
        Collector collector = new Collector();
        try (Subscription subscription = confirmed(channel, collector)) {
            commit(channel, "long");
            assertThat(collector.awaitCount(1).texts()).containsExactly("long");
        }
    }

    @Test
    void newSubscribersNeverReceiveOldMessagesEvenWhenResubscribing() throws Exception {
        String channel = Channels.unique("history");
        commit(channel, "before anyone");
        Collector first = new Collector();
        try (Subscription subscription = confirmed(channel, first)) {
            commit(channel, "first");
            first.awaitCount(1);
        }
        Collector again = new Collector();
        try (Subscription subscription = confirmed(channel, again)) {
            commit(channel, "second");
            again.awaitCount(1);
            assertThat(again.texts()).containsExactly("second");
        }
        assertThat(first.texts()).containsExactly("first");
    }

    @Test
    void tenThousandChannelsOnOneNodeUseTheUnfilteredPollAndStillFilter() throws Exception {
        // Over 256 channels the poller reads every new row and the subscriber map filters.
        int channels = 10_000;
        List<Subscription> subscriptions = new ArrayList<>();
        List<Collector> collectors = new ArrayList<>();
        String prefix = Channels.unique("wide");
        try {
            for (int i = 0; i < channels; i++) {
                Collector collector = new Collector();
                collectors.add(collector);
                subscriptions.add(cable.subscribe(prefix + "-" + i, collector));
            }
            CompletableFuture.allOf(subscriptions.stream().map(s -> s.confirmed().toCompletableFuture())
                    .toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            assertThat(engine.channelCount()).isGreaterThanOrEqualTo(channels);
            commit(Channels.unique("unrelated"), "nobody");
            List<Integer> targets = IntStream.iterate(0, i -> i < channels, i -> i + 997).boxed().toList();
            for (int i : targets) {
                commit(prefix + "-" + i, "to " + i);
            }
            for (int i : targets) {
                assertThat(collectors.get(i).awaitCount(1).texts()).containsExactly("to " + i);
            }
            assertThat(collectors.stream().mapToInt(c -> c.messages.size()).sum()).isEqualTo(targets.size());
        } finally {
            subscriptions.forEach(Subscription::close);
        }
        assertThat(engine.subscribersByChannel().keySet()).noneMatch(name -> name.startsWith(prefix));
    }

    @Test
    void slowListenerIsUnsubscribedWithoutDisturbingOthers() throws Exception {
        String channel = Channels.unique("slow");
        CompletableFuture<Void> release = new CompletableFuture<>();
        Subscription slow = cable.subscribe(channel, message -> release.join());
        Collector fast = new Collector();
        try (Subscription other = confirmed(channel, fast)) {
            slow.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            // The default buffer is 10,000: one message is being handled, 10,000 wait, the next one overflows.
            // Sent in chunks that each wait for their commit: 10,002 at once could overflow the writer queue (also
            // 10,000) on a loaded machine, and that queue is not what this test is about.
            for (int start = 0; start < 10_002; start += 1_000) {
                List<CompletableFuture<Void>> commits = new ArrayList<>();
                for (int i = start; i < Math.min(start + 1_000, 10_002); i++) {
                    commits.add(cable.broadcast(channel, "m" + i).toCompletableFuture());
                }
                CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            }
            assertThatThrownBy(() -> slow.closed().toCompletableFuture().get(60, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(CableException.SlowConsumer.class);
            fast.awaitCount(10_002);
            assertThat(fast.texts().get(10_001)).isEqualTo("m10001");
        } finally {
            release.complete(null);
            slow.close();
        }
    }

    @Test
    void aThrowingListenerKeepsReceivingAndDisturbsNobody() throws Exception {
        String channel = Channels.unique("throwing");
        Collector seen = new Collector();
        Subscription throwing = cable.subscribe(channel, message -> {
            seen.onMessage(message);
            throw new IllegalStateException("listener bug");
        });
        Collector healthy = new Collector();
        long failuresBefore = engine.stats().failures(Failure.LISTENER);
        try (throwing; Subscription other = confirmed(channel, healthy)) {
            throwing.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            commit(channel, "a");
            commit(channel, "b");
            assertThat(seen.awaitCount(2).texts()).containsExactly("a", "b");
            assertThat(healthy.awaitCount(2).texts()).containsExactly("a", "b");
            // Counted once the listener has thrown, on the delivery thread: after it saw "b", not before.
            Awaitility.await().atMost(Collector.TIMEOUT)
                    .until(() -> engine.stats().failures(Failure.LISTENER) - failuresBefore >= 2);
        }
    }

    @Test
    void invalidArgumentsAreRejectedClearly() {
        assertThatThrownBy(() -> cable.broadcast(null, "x").toCompletableFuture().join())
                .hasCauseInstanceOf(CableException.InvalidMessage.class);
        assertThatThrownBy(() -> cable.broadcast("c", (String) null).toCompletableFuture().join())
                .hasMessageContaining("payload must not be null");
        assertThatThrownBy(() -> cable.subscribe("", new Collector()))
                .isInstanceOf(CableException.InvalidMessage.class);
        assertThatThrownBy(() -> cable.subscribe("c", null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("listener must not be null");
        assertThatThrownBy(() -> cable.subscribe("c", Optional.empty(), null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("listener must not be null");
        assertThatThrownBy(() -> cable.subscribe("c", (Optional<StreamPosition>) null, new Collector()))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("cursor must not be null");
    }

    private Subscription confirmed(String channel, Collector collector) throws Exception {
        Subscription subscription = cable.subscribe(channel, collector);
        subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
        return subscription;
    }

    private void commit(String channel, String payload) throws Exception {
        cable.broadcast(channel, payload).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
