package io.quarkiverse.cable.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkiverse.cable.spi.HistoryRequest;
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
 * One Action Cable subscription recovering two streams together, in the core with a transport the test drives: the
 * wire shows the replays of both streams in id order, then the history answer, then the live messages held
 * meanwhile, and nothing before the protocol confirmed the subscription; one stream whose history is gone makes the
 * answer a refusal for all, with nothing replayed and every stream's share of the replay budget given back, while
 * the streams go on live.
 */
class GroupRecoveryTest {

    private static final String EPOCH = "e1";
    private static final int HOLD = 8;

    private final FakeTransport transport = new FakeTransport();
    private final CableEngine engine = CableEngine.create(config(), transport);
    /** What the client would see, in order: "r<id>" replayed, "confirm", "reject:<reason>", "l<id>" live. */
    private final List<String> wire = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> answered = new CompletableFuture<>();
    private final GroupRecovery group = new GroupRecovery(new GroupRecovery.Answer() {
        @Override
        public void replayed(List<CableMessage> replay, ReplayLease lease) {
            for (CableMessage message : replay) {
                wire.add("r" + message.id());
                lease.written(message);
            }
            lease.close();
            wire.add("confirm");
            answered.complete(null);
        }

        @Override
        public void refused(String reason) {
            wire.add("reject:" + reason);
            answered.complete(null);
        }
    });
    private final List<LocalSubscription> streams = new ArrayList<>();

    @AfterEach
    void close() {
        streams.forEach(LocalSubscription::close);
    }

    @Test
    void replaysInIdOrderThenTheAnswerThenWhatWasHeld() throws Exception {
        recover("a");
        recover("b");
        transport.start("a", 5);
        transport.start("b", 6);
        // Live while the histories are read: after each stream's starting line.
        transport.live(message("b", 7));
        transport.live(message("a", 8));
        transport.history("b").complete(replay("b", 2, 4, 6));
        transport.history("a").complete(replay("a", 1, 3, 5));
        assertNotAnsweredWithin();
        assertThat(wire).as("nothing before the protocol confirmed the subscription").isEmpty();

        group.ready();
        answered.get(60, TimeUnit.SECONDS);
        transport.live(message("a", 9));

        // Each stream's held messages follow in its order; across streams only the replay is sorted (the guarantee is
        // per channel: a stream's held messages are released when it goes live, one stream after the other, after the
        // answer, so a live message may still be held by its stream when it arrives).
        awaitWire(10);
        assertThat(wire.subList(0, 7)).containsExactly("r1", "r2", "r3", "r4", "r5", "r6", "confirm");
        assertThat(wire.subList(7, 10)).containsExactlyInAnyOrder("l7", "l8", "l9");
        assertThat(wire.indexOf("l8")).as("stream a in its order").isLessThan(wire.indexOf("l9"));
        assertThat(engine.replaysInFlight()).isZero();
        assertThat(engine.replayBytesInFlight()).isZero();
    }

    @Test
    void theAnswerWaitsForTheLastStreamEvenWhenReadyCameFirst() throws Exception {
        recover("a");
        recover("b");
        transport.start("a", 1);
        transport.start("b", 2);
        group.ready();
        transport.history("a").complete(replay("a", 1));
        assertNotAnsweredWithin();

        transport.history("b").complete(replay("b", 2));
        answered.get(60, TimeUnit.SECONDS);
        awaitWire(3);
        assertThat(wire).containsExactly("r1", "r2", "confirm");
    }

    @Test
    void oneStreamWithoutItsHistoryRefusesForAllAndGivesEveryShareBack() throws Exception {
        recover("a");
        recover("b");
        transport.start("a", 3);
        transport.start("b", 4);
        transport.live(message("a", 5));
        transport.history("a").complete(replay("a", 1, 3));
        transport.history("b").completeExceptionally(new CableException.HistoryUnavailable("b",
                new StreamPosition(EPOCH, 0), CableException.HistoryUnavailable.Reason.TRIMMED, "test"));
        group.ready();
        answered.get(60, TimeUnit.SECONDS);
        transport.live(message("b", 6));

        awaitWire(3);
        assertThat(wire).as("no replay of the stream whose history is there either")
                .containsExactly("reject:trimmed", "l5", "l6");
        assertThat(engine.replaysInFlight()).isZero();
        assertThat(engine.replayBytesInFlight()).isZero();
    }

    @Test
    void aFailedReadIsAnErrorRefusal() throws Exception {
        recover("a");
        transport.start("a", 2);
        transport.history("a").completeExceptionally(new java.sql.SQLException("connection reset"));
        group.ready();
        answered.get(60, TimeUnit.SECONDS);
        assertThat(wire).containsExactly("reject:error");
        assertThat(engine.replaysInFlight()).isZero();
    }

    /**
     * The hold is bounded while the group waits: a stream past it ends as a slow consumer, its history is not
     * replayed (so the group refuses), the others go on live, and the ended stream's read is not counted as a
     * refusal for the node's budget.
     */
    @Test
    void aStreamThatFallsTooFarBehindWhileHeldEndsAsSlow() throws Exception {
        LocalSubscription a = recover("a");
        recover("b");
        transport.start("a", 0);
        transport.start("b", 0);
        for (int id = 1; id <= HOLD + 1; id++) {
            transport.live(message("a", id));
        }
        transport.live(message("b", HOLD + 2));
        transport.history("a").complete(replay("a"));
        transport.history("b").complete(replay("b"));
        group.ready();
        answered.get(60, TimeUnit.SECONDS);

        assertThat(failure(a)).isInstanceOf(CableException.SlowConsumer.class);
        awaitWire(2);
        assertThat(wire).as("the slow stream's held messages are dropped, the other's delivered")
                .containsExactly("reject:busy", "l" + (HOLD + 2));
        assertThat(engine.stats().replaysOverBudget()).isZero();
        assertThat(engine.replaysInFlight()).isZero();
    }

    private LocalSubscription recover(String channel) {
        LocalSubscription subscription = engine.subscribe(channel, new Delivery() {
            @Override
            public boolean offer(CableMessage message) {
                wire.add("l" + message.id());
                return true;
            }

            @Override
            public void discard() {
            }

            @Override
            public int limit() {
                return HOLD;
            }
        }, new HistoryRequest.After(new StreamPosition(EPOCH, 0)), HOLD, engine.streamReplayQuota(),
                group.member());
        streams.add(subscription);
        return subscription;
    }

    /**
     * Waits (bounded) for {@code size} entries on the wire: the group answers, then takes its streams live, whose held
     * messages follow the answer on the group's thread, not the test's.
     */
    private void awaitWire(int size) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (wire.size() < size && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        assertThat(wire).as("the wire after the answer").hasSizeGreaterThanOrEqualTo(size);
    }

    private void assertNotAnsweredWithin() throws InterruptedException {
        // The steps run on virtual threads: give them time to (wrongly) answer.
        Thread.sleep(200);
        assertThat(answered).as("answered early: %s", wire).isNotDone();
    }

    private static Throwable failure(LocalSubscription subscription) throws Exception {
        try {
            subscription.closed().toCompletableFuture().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("the subscription closed normally");
    }

    private static Replay replay(String channel, long... ids) {
        List<CableMessage> messages = new ArrayList<>();
        for (long id : ids) {
            messages.add(message(channel, id));
        }
        return new Replay(messages, new StreamPosition(EPOCH, ids.length == 0 ? 0 : ids[ids.length - 1]));
    }

    /** A message of {@code channel} with id {@code id} (its position too: the tests need only their order). */
    private static CableMessage message(String channel, long id) {
        return new CableMessage(id, channel, ("m" + id).getBytes(StandardCharsets.UTF_8), false, id, EPOCH);
    }

    private static CableRuntimeConfig config() {
        return new SmallRyeConfigBuilder().addDiscoveredConverters().withMapping(CableRuntimeConfig.class)
                .build().getConfigMapping(CableRuntimeConfig.class);
    }

    /** Records each channel's subscription instead of starting it; each channel's history read waits for the test. */
    private static final class FakeTransport implements TransportFactory, Transport {

        private final Map<String, CompletableFuture<PendingSubscription>> subscribed = new ConcurrentHashMap<>();
        private final Map<String, CompletableFuture<Replay>> histories = new ConcurrentHashMap<>();
        private Subscribers subscribers;

        @Override
        public Transport create(Subscribers subscribers, TransportCounters counters) {
            this.subscribers = subscribers;
            return this;
        }

        CompletableFuture<Replay> history(String channel) {
            return histories.computeIfAbsent(channel, c -> new CompletableFuture<>());
        }

        /** Starts the channel's subscription at {@code startingLine}, as the poller does: its history step begins. */
        void start(String channel, long startingLine) throws Exception {
            assertThat(subscribed.computeIfAbsent(channel, c -> new CompletableFuture<>()).get(60, TimeUnit.SECONDS)
                    .startAt(startingLine)).as("started").isTrue();
        }

        /** A live message, dispatched as the poller does. */
        void live(CableMessage message) {
            subscribers.dispatch(ChannelHash.of(message.channel()), message);
        }

        @Override
        public String adapter() {
            return "fake";
        }

        @Override
        public CompletableFuture<Void> send(OutgoingMessage message) {
            throw new UnsupportedOperationException("the group tests broadcast nothing");
        }

        @Override
        public void startSubscription(PendingSubscription subscription) {
            subscribed.computeIfAbsent(subscription.channel(), c -> new CompletableFuture<>()).complete(subscription);
        }

        @Override
        public HistorySource history() {
            return (channel, channelHash, request, startingLine) -> {
                try {
                    return history(channel).get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    throw (Exception) e.getCause();
                }
            };
        }

        @Override
        public PresenceStore presence() {
            throw new UnsupportedOperationException("the group tests use no presence");
        }

        @Override
        public void start() {
        }

        @Override
        public void stop() {
        }
    }
}
