package io.quarkiverse.cable.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkiverse.cable.spi.HistorySource;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkiverse.cable.spi.PendingSubscription;
import io.quarkiverse.cable.spi.PresenceStore;
import io.quarkiverse.cable.spi.Replay;
import io.quarkiverse.cable.spi.Subscribers;
import io.quarkiverse.cable.spi.Transport;
import io.quarkiverse.cable.spi.TransportCounters;
import io.quarkiverse.cable.spi.TransportFactory;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * The seam of a recovering subscription, in the core alone, against a fake transport whose starting line, history
 * read and live messages the test drives one by one: holding (live messages wait while the history is read),
 * replayed (the replay goes first), live (then the held messages, then everything as it comes). Nothing is lost,
 * duplicated or reordered across the seam, and a failed history step delivers nothing at all.
 */
class RecoverySeamTest {

    private static final String CHANNEL = "seam";
    private static final String EPOCH = "e1";
    private static final int BUFFER = 4;

    private final FakeTransport transport = new FakeTransport();
    private final CableEngine engine = CableEngine.create(config(), transport);
    private final BlockingQueue<Long> received = new LinkedBlockingQueue<>();

    @Test
    void replayThenHeldThenLiveWithoutGapOrDuplicate() throws Exception {
        Subscription subscription = recovering(1);
        transport.start(4);
        // Live while the history is read: 4 is at the starting line (the replay has it), 5 and 6 are after it.
        transport.live(message(4));
        transport.live(message(5));
        transport.live(message(6));
        assertThat(subscription.confirmed().toCompletableFuture().isDone()).as("not confirmed while holding").isFalse();

        transport.history.complete(new Replay(List.of(message(2), message(3), message(4)), new StreamPosition(EPOCH, 4)));
        subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
        transport.live(message(7));

        assertThat(take(6)).containsExactly(2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(received.poll(200, TimeUnit.MILLISECONDS)).as("nothing more").isNull();
        subscription.close();
    }

    @Test
    void anEmptyReplayStillReleasesTheHeldMessagesFirst() throws Exception {
        Subscription subscription = recovering(4);
        transport.start(4);
        transport.live(message(5));

        transport.history.complete(new Replay(List.of(), new StreamPosition(EPOCH, 4)));
        subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
        transport.live(message(6));

        assertThat(take(2)).containsExactly(5L, 6L);
        subscription.close();
    }

    /** The hold is bounded: one live message over the buffer while reading ends the subscription, nothing delivered. */
    @Test
    void tooManyLiveMessagesWhileHoldingEndTheSubscriptionAsSlow() throws Exception {
        Subscription subscription = recovering(1);
        transport.start(1);
        for (int i = 2; i <= BUFFER + 1; i++) {
            assertThat(transport.live(message(i))).isTrue();
        }
        assertThat(transport.live(message(BUFFER + 2))).as("over the hold limit").isFalse();

        assertThat(failure(subscription)).isInstanceOf(CableException.SlowConsumer.class);
        transport.history.complete(new Replay(List.of(), new StreamPosition(EPOCH, 1)));
        assertThat(received.poll(200, TimeUnit.MILLISECONDS)).as("nothing delivered").isNull();
    }

    @Test
    void historyUnavailableEndsTheSubscriptionAndDropsWhatWasHeld() throws Exception {
        Subscription subscription = recovering(1);
        transport.start(3);
        transport.live(message(4));

        transport.history.completeExceptionally(new CableException.HistoryUnavailable(CHANNEL,
                new StreamPosition(EPOCH, 1), CableException.HistoryUnavailable.Reason.TRIMMED, "test"));

        assertThat(failure(subscription)).isInstanceOf(CableException.HistoryUnavailable.class);
        transport.live(message(5));
        assertThat(received.poll(200, TimeUnit.MILLISECONDS)).as("neither held nor later messages").isNull();
    }

    @Test
    void aFailedHistoryReadEndsTheSubscriptionAsAStorageFailure() throws Exception {
        Subscription subscription = recovering(1);
        transport.start(3);
        transport.live(message(4));

        transport.history.completeExceptionally(new java.sql.SQLException("connection reset"));

        assertThat(failure(subscription)).isInstanceOf(CableException.StorageFailed.class)
                .hasMessageContaining("connection reset");
        assertThat(received.poll(200, TimeUnit.MILLISECONDS)).isNull();
    }

    /** Closed while it waited for its starting line, a subscription joins nothing when the adapter gets to it. */
    @Test
    void aSubscriptionClosedBeforeItsStartJoinsNothing() throws Exception {
        Subscription subscription = engine.subscribe(CHANNEL, message -> received.add(message.position()));
        subscription.close();

        assertThat(transport.pending().startAt(5)).as("started").isFalse();
        assertThat(transport.live(message(6))).as("delivered").isFalse();
        assertThat(engine.subscriberCount()).isZero();
        assertThat(received.poll(200, TimeUnit.MILLISECONDS)).isNull();
    }

    /** A subscription without history never sees what was committed before its starting line. */
    @Test
    void aPlainSubscriptionGetsNothingAtOrBelowItsStartingLine() throws Exception {
        Subscription subscription = engine.subscribe(CHANNEL, message -> received.add(message.position()));
        transport.start(5);
        subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
        transport.live(message(4));
        transport.live(message(5));
        transport.live(message(6));

        assertThat(take(1)).containsExactly(6L);
        assertThat(received.poll(200, TimeUnit.MILLISECONDS)).isNull();
        subscription.close();
    }

    /**
     * A client's replay holds its share of the node's replay budget until its front end writes it; a front end that
     * never does (a stream that failed or was cancelled mid-replay) gives it back when the subscription ends.
     */
    @Test
    void aClientReplayThatIsNeverWrittenGivesItsBudgetBackWhenTheSubscriptionEnds() throws Exception {
        CompletableFuture<ReplayLease> handed = new CompletableFuture<>();
        LocalSubscription subscription = engine.subscribe(CHANNEL, delivery(),
                new io.quarkiverse.cable.spi.HistoryRequest.After(new StreamPosition(EPOCH, 1)), BUFFER,
                engine.streamReplayQuota(), started -> new Kept(handed));
        transport.start(3);
        // Its place is taken on the step's virtual thread, before the read (which waits for the test).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (engine.replaysInFlight() == 0 && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        assertThat(engine.replaysInFlight()).as("its place is taken before the read").isEqualTo(1);
        transport.history.complete(new Replay(List.of(message(2), message(3)), new StreamPosition(EPOCH, 3)));
        handed.get(60, TimeUnit.SECONDS);
        assertThat(engine.replayBytesInFlight()).isEqualTo(2 * (2 + ReplayBudget.MESSAGE_OVERHEAD));

        subscription.close();
        subscription.closed().toCompletableFuture().get(60, TimeUnit.SECONDS);
        assertThat(engine.replayBytesInFlight()).isZero();
        assertThat(engine.replaysInFlight()).isZero();
    }

    /** A history read that fails gives the replay's place back. */
    @Test
    void aFailedClientReplayGivesItsPlaceBack() throws Exception {
        CompletableFuture<Exception> failed = new CompletableFuture<>();
        LocalSubscription subscription = engine.subscribe(CHANNEL, delivery(),
                new io.quarkiverse.cable.spi.HistoryRequest.After(new StreamPosition(EPOCH, 1)), BUFFER,
                engine.streamReplayQuota(), started -> new Kept(null) {
                    @Override
                    public void failed(Exception failure) {
                        failed.complete(failure);
                    }
                });
        transport.start(3);
        transport.history.completeExceptionally(new java.sql.SQLException("connection reset"));
        failed.get(60, TimeUnit.SECONDS);
        assertThat(engine.replaysInFlight()).isZero();
        assertThat(engine.replayBytesInFlight()).isZero();
        subscription.close();
    }

    /** An outcome that keeps the lease it is handed and writes nothing: a front end whose client stopped. */
    private static class Kept implements RecoveryOutcome {
        private final CompletableFuture<ReplayLease> handed;

        Kept(CompletableFuture<ReplayLease> handed) {
            this.handed = handed;
        }

        @Override
        public void replayed(Replay replay) {
            throw new AssertionError("a client's replay comes with its lease");
        }

        @Override
        public void replayed(Replay replay, ReplayLease lease) {
            handed.complete(lease);
        }

        @Override
        public void unavailable(CableException.HistoryUnavailable reason) {
        }

        @Override
        public void failed(Exception failure) {
        }
    }

    private Delivery delivery() {
        return new Delivery() {
            @Override
            public boolean offer(CableMessage message) {
                return true;
            }

            @Override
            public void discard() {
            }

            @Override
            public int limit() {
                return BUFFER;
            }
        };
    }

    /** A recovering subscription of {@link #CHANNEL} after position {@code after}, received into {@link #received}. */
    private Subscription recovering(long after) {
        return engine.subscribe(CHANNEL, new StreamPosition(EPOCH, after), message -> received.add(message.position()));
    }

    private List<Long> take(int count) throws InterruptedException {
        List<Long> taken = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Long position = received.poll(60, TimeUnit.SECONDS);
            assertThat(position).as("message %d of %d (got %s)", i + 1, count, taken).isNotNull();
            taken.add(position);
        }
        return taken;
    }

    private static Throwable failure(Subscription subscription) throws InterruptedException, TimeoutException {
        try {
            subscription.closed().toCompletableFuture().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("the subscription closed normally");
    }

    /** The message of position {@code position}, id equal to it: ids and positions grow together on one channel. */
    private static CableMessage message(long position) {
        return new CableMessage(position, CHANNEL, ("m" + position).getBytes(StandardCharsets.UTF_8), false, position,
                EPOCH);
    }

    private static CableRuntimeConfig config() {
        return new SmallRyeConfigBuilder().addDiscoveredConverters().withMapping(CableRuntimeConfig.class)
                .withDefaultValue("quarkus.cable.subscriber-buffer", Integer.toString(BUFFER))
                .build().getConfigMapping(CableRuntimeConfig.class);
    }

    /**
     * A transport the test drives: it records the subscription instead of starting it, and its history read waits for
     * the test to complete {@link #history}.
     */
    private static final class FakeTransport implements TransportFactory, Transport {

        final CompletableFuture<Replay> history = new CompletableFuture<>();
        private final CompletableFuture<PendingSubscription> subscribed = new CompletableFuture<>();
        private Subscribers subscribers;

        @Override
        public Transport create(Subscribers subscribers, TransportCounters counters) {
            this.subscribers = subscribers;
            return this;
        }

        /** Starts the subscription at {@code startingLine}, as the poller does (its history step begins). */
        /** The subscription the engine handed over, waiting for its starting line. */
        PendingSubscription pending() throws Exception {
            return subscribed.get(60, TimeUnit.SECONDS);
        }

        void start(long startingLine) throws Exception {
            assertThat(pending().startAt(startingLine)).as("started").isTrue();
        }

        /** A live message, dispatched as the poller does; false when the subscription did not take it. */
        boolean live(CableMessage message) {
            return subscribers.dispatch(ChannelHash.of(message.channel()), message) == 1;
        }

        @Override
        public String adapter() {
            return "fake";
        }

        @Override
        public CompletableFuture<Void> send(OutgoingMessage message) {
            throw new UnsupportedOperationException("the seam tests broadcast nothing");
        }

        @Override
        public void startSubscription(PendingSubscription subscription) {
            subscribed.complete(subscription);
        }

        @Override
        public HistorySource history() {
            return (channel, channelHash, request, startingLine) -> {
                try {
                    return history.get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    throw (Exception) e.getCause();
                }
            };
        }

        @Override
        public PresenceStore presence() {
            throw new UnsupportedOperationException("the seam tests use no presence");
        }

        @Override
        public void start() {
        }

        @Override
        public void stop() {
        }
    }
}
