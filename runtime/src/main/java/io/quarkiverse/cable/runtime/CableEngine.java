package io.quarkiverse.cable.runtime;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.runtime.config.CableConfigCheck;
import io.quarkiverse.cable.runtime.config.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.database.DatabaseTransport;
import io.quarkiverse.cable.runtime.delivery.Delivery;
import io.quarkiverse.cable.runtime.delivery.OrderedMailbox;
import io.quarkiverse.cable.runtime.history.HeldDelivery;
import io.quarkiverse.cable.runtime.history.HistoryRequest;
import io.quarkiverse.cable.runtime.history.HistorySettings;
import io.quarkiverse.cable.runtime.history.Recovery;
import io.quarkiverse.cable.runtime.history.RecoveryOutcomes;
import io.quarkiverse.cable.runtime.history.ReplayLimits;
import io.quarkiverse.cable.runtime.history.ReplayQuota;
import io.quarkiverse.cable.runtime.json.JsonPayloads;
import io.quarkiverse.cable.runtime.memory.MemoryTransport;
import io.quarkiverse.cable.runtime.sse.SseSettings;
import io.quarkiverse.cable.runtime.store.OutgoingMessage;
import io.quarkiverse.cable.runtime.store.SqlDialect;
import io.quarkiverse.cable.runtime.subscribers.LocalSubscription;
import io.quarkiverse.cable.runtime.subscribers.SubscriberMap;
import io.quarkiverse.cable.runtime.transaction.TransactionalBroadcasts;

/**
 * The {@link Cable} behind the bean: validates broadcasts and subscriptions, hands them to the transport, and makes
 * sure no failure goes unnoticed even when the caller ignores the returned stage.
 * <p>
 * Internal: applications inject {@link Cable}. The factory methods are the one place a cable is assembled (the
 * recorder, benchmarks and tests of a second node all use them), and the one place its configuration is validated.
 */
public final class CableEngine implements Cable {

    private static final Logger LOG = Logger.getLogger("io.quarkiverse.cable");

    private final Transport transport;
    private final SubscriberMap subscribers = new SubscriberMap();
    private final CableStats stats = new CableStats();
    private final FailureLog failures = new FailureLog(LOG, stats);
    private final int maxChannelLength;
    private final long maxPayloadSize;
    private final int subscriberBuffer;
    private final JsonPayloads json = new JsonPayloads();
    private final BroadcastTaps taps = new BroadcastTaps();
    private final Cable withoutTransaction = new ImmediateCable(this);
    /** Null unless broadcasts join the caller's JTA transaction (set once at start). */
    private volatile TransactionalBroadcasts transactions;
    private final HistorySettings historySettings;
    private final ReplayLimits replayLimits;
    private final SseSettings sseSettings;

    private CableEngine(CableRuntimeConfig config, BiFunction<SubscriberMap, CableStats, Transport> transport) {
        CableConfigCheck.validate(config);
        this.maxChannelLength = config.maxChannelLength();
        this.maxPayloadSize = config.maxPayloadSize().asLongValue();
        this.subscriberBuffer = config.subscriberBuffer();
        this.historySettings = HistorySettings.from(config);
        this.replayLimits = ReplayLimits.from(config);
        this.sseSettings = SseSettings.from(config);
        this.transport = transport.apply(subscribers, stats);
    }

    /**
     * A cable on the {@code database} adapter. The datasource is resolved at {@link #start()}, when the application's
     * datasources exist.
     */
    public static CableEngine database(String datasourceName, Supplier<DataSource> dataSource, SqlDialect dialect,
            CableRuntimeConfig config) {
        return new CableEngine(config, (subscribers, stats) -> new DatabaseTransport(datasourceName, dataSource,
                dialect, subscribers, config, stats));
    }

    /** A cable on the {@code memory} adapter: this process only. */
    public static CableEngine memory(CableRuntimeConfig config) {
        return new CableEngine(config,
                (subscribers, stats) -> new MemoryTransport(subscribers, stats, HistorySettings.from(config)));
    }

    @Override
    public CompletionStage<Void> broadcast(String channel, String payload) {
        return broadcast(channel, (Object) payload, true);
    }

    @Override
    public CompletionStage<Void> broadcast(String channel, byte[] payload) {
        return broadcast(channel, (Object) payload, true);
    }

    @Override
    public CompletionStage<Void> broadcast(String channel, Object payload) {
        return broadcast(channel, payload, true);
    }

    @Override
    public Cable withoutTransaction() {
        return withoutTransaction;
    }

    /**
     * Broadcasts text ({@code String}), bytes ({@code byte[]}) or any other object as JSON; {@code joinTransaction}
     * false never joins the caller's transaction.
     */
    CompletionStage<Void> broadcast(String channel, Object payload, boolean joinTransaction) {
        if (payload == null) {
            return rejected(new CableException.InvalidMessage("Cable broadcast payload must not be null"));
        }
        if (payload instanceof String text) {
            return send(channel, text.getBytes(StandardCharsets.UTF_8), false, joinTransaction);
        }
        if (payload instanceof byte[] bytes) {
            return send(channel, bytes, true, joinTransaction);
        }
        byte[] encoded;
        try {
            encoded = json.encode(payload);
        } catch (Exception e) {
            return rejected(new CableException.InvalidMessage("Cable broadcast payload on '" + channel + "' ("
                    + payload.getClass().getName() + ") could not be written as JSON: " + e.getMessage()));
        }
        return send(channel, encoded, false, joinTransaction);
    }

    /** From now on, broadcasts made inside an active JTA transaction join it. */
    public void joinTransactions(TransactionalBroadcasts transactions) {
        this.transactions = transactions;
    }

    /** The JSON codec of broadcast objects and action parameters (the application's ObjectMapper). */
    public JsonPayloads json() {
        return json;
    }

    /** Observers of committed broadcasts (the testing helper). */
    public BroadcastTaps taps() {
        return taps;
    }

    @Override
    public Subscription subscribe(String channel, CableListener listener) {
        if (listener == null) {
            throw new CableException.InvalidMessage("Cable subscription listener must not be null");
        }
        return subscribe(channel, new OrderedMailbox(listener, subscriberBuffer,
                (message, failure) -> failures.record(CableStats.Failure.LISTENER, "Cable listener on channel '"
                        + message.channel() + "' failed for message " + message.id(), failure)));
    }

    @Override
    public Subscription subscribe(String channel, StreamPosition after, CableListener listener) {
        if (listener == null) {
            throw new CableException.InvalidMessage("Cable subscription listener must not be null");
        }
        if (after == null) {
            throw new CableException.InvalidMessage("Cable subscription position must not be null");
        }
        // The mailbox takes the whole replay and the live messages held meanwhile at once.
        OrderedMailbox mailbox = new OrderedMailbox(listener, subscriberBuffer + historySettings.maxReplay(),
                (message, failure) -> failures.record(CableStats.Failure.LISTENER, "Cable listener on channel '"
                        + message.channel() + "' failed for message " + message.id(), failure));
        return subscribe(channel, mailbox, new HistoryRequest.After(after), subscriberBuffer,
                new RecoveryOutcomes.EndOnFailure(channel, subscriberBuffer));
    }

    /**
     * Subscribes {@code delivery} with a history step: live messages are held (at most {@code holdLimit}) while what
     * {@code request} asks for is read; then {@code outcome} decides what to do with the replay or the refusal (and
     * when to confirm). The subscription's starting line is recorded first, so replay and live meet without a gap or
     * an overlap.
     */
    public LocalSubscription subscribe(String channel, Delivery delivery, HistoryRequest request, int holdLimit,
            RecoveryOutcomes.Factory outcome) {
        return subscribe(channel, delivery, request, holdLimit, ReplayQuota.NONE, outcome);
    }

    /** As above, with the history step counted against its connection's {@code quota}. */
    public LocalSubscription subscribe(String channel, Delivery delivery, HistoryRequest request, int holdLimit,
            ReplayQuota quota, RecoveryOutcomes.Factory outcome) {
        HeldDelivery held = new HeldDelivery(delivery, holdLimit);
        LocalSubscription subscription = newSubscription(channel, held);
        subscription.onStart(started -> new Recovery(transport.history(), stats).replay(started, request, quota,
                outcome.create(started, held)));
        transport.startSubscription(subscription);
        return subscription;
    }

    /** A new connection's share of history steps in flight ({@code quarkus.cable.history.max-replays-per-connection}). */
    public ReplayQuota newReplayQuota() {
        return new ReplayQuota(replayLimits.perConnection());
    }

    public HistorySettings historySettings() {
        return historySettings;
    }

    /** The SSE streams' bounds. */
    public SseSettings sseSettings() {
        return sseSettings;
    }

    /** How many messages a subscription may have waiting ({@code quarkus.cable.subscriber-buffer}). */
    public int subscriberBuffer() {
        return subscriberBuffer;
    }

    /**
     * Subscribes any {@link Delivery}, with the same starting-line guarantee as {@link #subscribe(String, CableListener)}.
     * A direct delivery runs on the dispatching thread (the poller), so it must never block.
     */
    public LocalSubscription subscribe(String channel, Delivery delivery) {
        LocalSubscription subscription = newSubscription(channel, delivery);
        transport.startSubscription(subscription);
        return subscription;
    }

    private LocalSubscription newSubscription(String channel, Delivery delivery) {
        String problem = channelProblem(channel);
        if (problem != null) {
            throw new CableException.InvalidMessage(problem);
        }
        LocalSubscription subscription = new LocalSubscription(channel, ChannelHash.of(channel), delivery,
                subscribers::remove);
        subscription.closed().whenComplete((ignored, failure) -> {
            if (failure instanceof CableException.SlowConsumer) {
                failures.record(CableStats.Failure.SLOW_CONSUMER, failure.getMessage(), null);
            }
        });
        return subscription;
    }

    /** Why {@code channel} cannot be used, or null when it can. */
    public String channelProblem(String channel) {
        if (channel == null || channel.isEmpty()) {
            return "Cable channel name must not be null or empty";
        }
        if (channel.length() > maxChannelLength) {
            return "Cable channel name is " + channel.length() + " characters, over quarkus.cable.max-channel-length ("
                    + maxChannelLength + ")";
        }
        return null;
    }

    /** Records a failure of the WebSocket layer in the same counters and rate-limited log as the core's. */
    public void recordFailure(CableStats.Failure kind, String message) {
        failures.record(kind, message, null);
    }

    @Override
    public String adapter() {
        return transport.adapter();
    }

    public SubscriberMap subscribers() {
        return subscribers;
    }

    public CableStats stats() {
        return stats;
    }

    public Transport transport() {
        return transport;
    }

    public void start() {
        transport.start();
    }

    public void stop() {
        transport.stop();
    }

    private CompletionStage<Void> send(String channel, byte[] payload, boolean binary, boolean joinTransaction) {
        String problem = channelProblem(channel);
        if (problem != null) {
            return rejected(new CableException.InvalidMessage(problem));
        }
        if (payload.length > maxPayloadSize) {
            return rejected(new CableException.InvalidMessage("Cable broadcast payload on '" + channel + "' is "
                    + payload.length + " bytes, over quarkus.cable.max-payload-size (" + maxPayloadSize
                    + " bytes)"));
        }
        stats.broadcastAccepted();
        OutgoingMessage message = new OutgoingMessage(channel, ChannelHash.of(channel), payload, binary,
                System.nanoTime(), new CompletableFuture<>());
        TransactionalBroadcasts joined = joinTransaction ? transactions : null;
        CompletableFuture<Void> inTransaction = joined == null ? null : joined.join(message);
        CompletableFuture<Void> result = inTransaction != null ? inTransaction : transport.send(message);
        result.whenComplete((ignored, failure) -> {
            if (failure == null) {
                if (!taps.isEmpty()) {
                    taps.committed(channel, payload, binary);
                }
            } else if (failure instanceof CableException.RolledBack) {
                // The application's transaction decided; nothing failed in the cable.
            } else {
                failures.record(kindOf(failure), "Cable broadcast on '" + channel + "' failed: " + failure.getMessage(),
                        failure instanceof CableException.StorageFailed
                                || failure instanceof CableException.CommitUnknown ? failure.getCause() : null);
            }
        });
        return result;
    }

    private CompletionStage<Void> rejected(CableException failure) {
        failures.record(CableStats.Failure.INVALID, failure.getMessage(), null);
        return CompletableFuture.failedFuture(failure);
    }

    private static CableStats.Failure kindOf(Throwable failure) {
        if (failure instanceof CableException.QueueFull) {
            return CableStats.Failure.QUEUE_FULL;
        }
        if (failure instanceof CableException.Stopped) {
            return CableStats.Failure.STOPPED;
        }
        if (failure instanceof CableException.CommitUnknown) {
            return CableStats.Failure.COMMIT_UNKNOWN;
        }
        if (failure instanceof CableException.InvalidMessage) {
            return CableStats.Failure.INVALID;
        }
        return CableStats.Failure.STORAGE;
    }
}
