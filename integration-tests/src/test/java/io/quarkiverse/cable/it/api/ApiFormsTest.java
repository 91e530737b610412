package io.quarkiverse.cable.it.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.MutinyCable;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.test.BroadcastCapture;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;

/** The API's forms (issue 14, items 2, 3 and 5): Mutiny, objects as JSON, and the testing helper. */
@DatabaseIndependent
@QuarkusTest
public class ApiFormsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Inject
    Cable cable;

    @Inject
    MutinyCable mutiny;

    record Price(String symbol, long cents) {
    }

    @Test
    void uniBroadcastReachesSubscribersAndConfirmedSubscription() {
        String channel = Channels.unique("uni");
        Collector collector = new Collector();
        Subscription subscription = mutiny.subscribe(channel, collector).await().atMost(TIMEOUT);
        try {
            mutiny.broadcast(channel, "text").await().atMost(TIMEOUT);
            mutiny.broadcast(channel, new byte[] { 1, 2 }).await().atMost(TIMEOUT);
            mutiny.broadcast(channel, new Price("Q", 4200)).await().atMost(TIMEOUT);
            collector.awaitCount(3);
            assertThat(collector.messages.get(0).text()).isEqualTo("text");
            assertThat(collector.messages.get(1).binary()).isTrue();
            assertThat(collector.messages.get(1).payload()).containsExactly(1, 2);
            assertThat(collector.messages.get(2).text()).isEqualTo("{\"symbol\":\"Q\",\"cents\":4200}");
            assertThat(collector.messages.get(2).binary()).isFalse();
        } finally {
            subscription.close();
        }
    }

    @Test
    void uniIsLazyAndReportsFailures() {
        String channel = Channels.unique("uni-lazy");
        try (BroadcastCapture capture = BroadcastCapture.channel(channel)) {
            var pending = mutiny.broadcast(channel, "later");
            assertThat(capture.count()).as("nothing before subscription").isZero();
            pending.await().atMost(TIMEOUT);
            assertThat(capture.await(1)).extracting(CableMessage::text).containsExactly("later");
        }
        assertThatThrownBy(() -> mutiny.broadcast("", "x").await().atMost(TIMEOUT))
                .isInstanceOf(CableException.InvalidMessage.class);
    }

    @Test
    void multiDeliversInOrderAndCancellingUnsubscribes() throws Exception {
        String channel = Channels.unique("multi");
        AssertSubscriber<CableMessage> subscriber = mutiny.messages(channel, 100)
                .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
        // The stream is live once a broadcast sent now arrives; send probes until one does.
        awaitLive(channel, subscriber);
        for (int i = 0; i < 20; i++) {
            cable.broadcast(channel, "m" + i);
        }
        // Probes may still arrive (one sent after a slow one): the messages are what is not a probe.
        Awaitility.await().atMost(TIMEOUT).until(() -> messages(subscriber).size() >= 20);
        assertThat(messages(subscriber)).containsExactlyElementsOf(java.util.stream.IntStream.range(0, 20)
                .mapToObj(i -> "m" + i).toList());
        subscriber.cancel();
    }

    @Test
    void multiOverflowEndsTheStreamWithSlowConsumer() throws Exception {
        String channel = Channels.unique("multi-overflow");
        // Requests one item, then nothing: the 4-message buffer fills and the stream fails rather than grows.
        AssertSubscriber<CableMessage> subscriber = mutiny.messages(channel, 4)
                .subscribe().withSubscriber(AssertSubscriber.create(1));
        awaitLive(channel, subscriber);
        for (int i = 0; i < 10; i++) {
            cable.broadcast(channel, "flood" + i).toCompletableFuture().get(60, TimeUnit.SECONDS);
        }
        subscriber.awaitFailure(TIMEOUT);
        assertThat(subscriber.getFailure()).isInstanceOf(CableException.SlowConsumer.class);
    }

    @Test
    void objectsAreJsonWithTheApplicationMapperAndUnwritableOnesFail() throws Exception {
        String channel = Channels.unique("objects");
        try (BroadcastCapture capture = BroadcastCapture.channel(channel)) {
            cable.broadcast(channel, new Price("X", 1)).toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.broadcast(channel, List.of(1, 2)).toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertThat(capture.await(2)).extracting(CableMessage::text)
                    .containsExactly("{\"symbol\":\"X\",\"cents\":1}", "[1,2]");
        }
        CompletableFuture<Void> unwritable = cable.broadcast(channel, new Object()).toCompletableFuture();
        assertThatThrownBy(() -> unwritable.get(60, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(CableException.InvalidMessage.class);
    }

    @Test
    void captureSeesOnlyMatchingChannelsAndTimesOutWithWhatItSaw() throws Exception {
        String prefix = Channels.unique("capture");
        try (BroadcastCapture capture = BroadcastCapture.channelsStartingWith(prefix)) {
            cable.broadcast(prefix + ":a", "1");
            cable.broadcast("elsewhere:" + prefix, "ignored");
            cable.broadcast(prefix + ":b", "2");
            capture.await(2);
            assertThat(capture.texts(prefix + ":a")).containsExactly("1");
            assertThat(capture.texts(prefix + ":b")).containsExactly("2");
            assertThatThrownBy(() -> capture.await(3, Duration.ofMillis(200))).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("captured 2");
        }
    }

    private static List<String> messages(AssertSubscriber<CableMessage> subscriber) {
        return subscriber.getItems().stream().map(CableMessage::text).filter(text -> !text.equals("probe")).toList();
    }

    /** Broadcasts probes until the Multi received one (its subscription is confirmed asynchronously). */
    private void awaitLive(String channel, AssertSubscriber<CableMessage> subscriber) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (subscriber.getItems().isEmpty() && subscriber.getFailure() == null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the Multi never received a probe");
            }
            cable.broadcast(channel, "probe").toCompletableFuture().get(60, TimeUnit.SECONDS);
            try {
                subscriber.awaitNextItem(Duration.ofSeconds(1));
            } catch (AssertionError notYet) {
                // not live yet: probe again
            }
        }
    }
}
