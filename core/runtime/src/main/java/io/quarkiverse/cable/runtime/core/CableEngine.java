package io.quarkiverse.cable.runtime.core;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableIdentities;
import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkiverse.cable.spi.ExcludedSession;
import io.quarkiverse.cable.spi.Failure;
import io.quarkiverse.cable.spi.FailureLog;
import io.quarkiverse.cable.spi.HistoryRequest;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkiverse.cable.spi.StoreException;
import io.quarkiverse.cable.spi.Transport;
import io.quarkiverse.cable.spi.TransportFactory;

/**
 * The {@link Cable} behind the bean: validates broadcasts and subscriptions, hands them to the transport, and makes
 * sure no failure goes unnoticed even when the caller ignores the returned stage.
 * <p>
 * Internal: applications inject {@link Cable}. {@link #create} is the one place a cable is assembled (the recorder,
 * benchmarks and tests of a second node all use it), and the one place its configuration is validated.
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
    private final Cable withoutTransaction = new CableView(this, false, null);
    /** Null unless broadcasts join the caller's JTA transaction (set once at start). */
    private volatile TransactionalBroadcasts transactions;
    private final HistorySettings historySettings;
    private final int replaysPerConnection;
    /** The node's bound on client replays in flight, every front end's together. */
    private final ReplayBudget replayBudget;
    private final Presence presence;
    private final EngineIdentities identities;
    /** Whether a broadcast's log MDC can reach a listener: only when the transport dispatches on the sending thread. */
    private final boolean carriesContext;

    private CableEngine(CableRuntimeConfig config, TransportFactory transport) {
        CableConfigCheck.validate(config);
        this.maxChannelLength = config.maxChannelLength();
        this.maxPayloadSize = config.maxPayloadSize().asLongValue();
        this.subscriberBuffer = config.subscriberBuffer();
        this.historySettings = HistorySettings.from(config);
        this.replaysPerConnection = config.history().maxReplaysPerConnection();
        this.replayBudget = new ReplayBudget(config.history().maxReplayBytesInFlight().asLongValue(),
                config.history().maxReplaysInFlight());
        this.transport = transport.create(subscribers, stats);
        this.carriesContext = this.transport.dispatchesOnSend();
        this.identities = new EngineIdentities(this);
        this.presence = new Presence(this.transport::presence, PresenceSettings.from(config),
                delivery -> subscribe(IdentityChannels.PRESENCE, delivery));
    }

    /** {@link CableIdentities} on this engine: per-identity broadcasts and remote disconnects. */
    public CableIdentities identities() {
        return identities;
    }

    /**
     * Applies every remote disconnect command read from now on to this node's {@code sessions} (one per front end), in
     * command order; until the returned subscription is closed.
     */
    public Subscription applyDisconnects(List<LocalSessions> sessions) {
        return identities.listen(sessions);
    }

    /** The presence sets of this cable, and this node's reader of their events. */
    public Presence presence() {
        return presence;
    }

    /**
     * A cable on the transport {@code transport} builds: the recorder chooses the adapter (benchmarks and tests of a
     * second node do the same through the adapters' factories). The configuration is validated here, once.
     */
    public static CableEngine create(CableRuntimeConfig config, TransportFactory transport) {
        return new CableEngine(config, transport);
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

    @Override
    public Cable excluding(String sessionId) {
        return sessionId == null ? this : new CableView(this, true, sessionId);
    }

    /**
     * Broadcasts text ({@code String}), bytes ({@code byte[]}) or any other object as JSON; {@code joinTransaction}
     * false never joins the caller's transaction.
     */
    CompletionStage<Void> broadcast(String channel, Object payload, boolean joinTransaction) {
        return broadcast(channel, payload, joinTransaction, null);
    }

    /**
     * {@link #broadcast(String, Object, boolean)}, not delivered to client session {@code excludedSession} (null:
     * to everyone). The session travels with the stored row ({@link ExcludedSession}), so every node skips it.
     */
    CompletionStage<Void> broadcast(String channel, Object payload, boolean joinTransaction, String excludedSession) {
        CableException reserved = IdentityChannels.refusal(channel);
        if (reserved != null) {
            return rejected(reserved, joinTransaction);
        }
        if (payload == null) {
            return rejected(new CableException.InvalidMessage("Cable broadcast payload must not be null"),
                    joinTransaction);
        }
        if (excludedSession != null && payload instanceof byte[]) {
            return rejected(new CableException.InvalidMessage("Cable broadcast on '" + channel + "' excludes a"
                    + " session, which only text and JSON broadcasts can (a binary payload has no room for it)"),
                    joinTransaction);
        }
        if (excludedSession != null && (excludedSession.isEmpty()
                || excludedSession.getBytes(StandardCharsets.UTF_8).length > ExcludedSession.MAX_LENGTH)) {
            return rejected(new CableException.InvalidMessage("Cable broadcast on '" + channel + "' excludes a"
                    + " session id that is empty or over " + ExcludedSession.MAX_LENGTH + " bytes"), joinTransaction);
        }
        if (payload instanceof String text) {
            return send(channel, text.getBytes(StandardCharsets.UTF_8), false, joinTransaction, excludedSession);
        }
        if (payload instanceof byte[] bytes) {
            return send(channel, bytes, true, joinTransaction, null);
        }
        byte[] encoded;
        try {
            encoded = json.encode(payload);
        } catch (Exception e) {
            return rejected(new CableException.InvalidMessage("Cable broadcast payload on '" + channel + "' ("
                    + payload.getClass().getName() + ") could not be written as JSON: " + e.getMessage()),
                    joinTransaction);
        }
        return send(channel, encoded, false, joinTransaction, excludedSession);
    }

    /**
     * A command of the cable itself ({@code payload} is JSON text) on a reserved channel the application's broadcasts
     * are refused on; joins the caller's transaction like a broadcast.
     */
    public CompletionStage<Void> broadcastCommand(String channel, byte[] payload) {
        return send(channel, payload, false, true, null);
    }

    /**
     * From now on, broadcasts made inside an active JTA transaction join it (the application's transaction manager,
     * looked up by {@link TransactionJoining}); one transaction holds at most {@code maxPerTransaction} of them.
     */
    public void joinTransactions(int maxPerTransaction) {
        this.transactions = TransactionJoining.broadcasts(this, maxPerTransaction);
    }

    /** A reader of {@code channel} for this node, handing each message's text to {@code dispatch} (never blocking). */
    public ChannelReader channelReader(String channel, Consumer<String> dispatch) {
        return new ChannelReader(delivery -> subscribe(channel, delivery), dispatch);
    }

    /** The application's Jackson mapper, which also encodes broadcast objects: for action parameters. */
    public ObjectMapper objectMapper() {
        return json.mapper();
    }

    /**
     * {@code value} as JSON text, encoded as broadcast objects are; one Jackson cannot write is an IllegalArgumentException.
     */
    public String jsonText(Object value) {
        return json.encodeText(value);
    }

    /** Observers of committed broadcasts (the testing helper). */
    public BroadcastTaps taps() {
        return taps;
    }

    @Override
    public Subscription subscribe(String channel, CableListener listener) {
        Objects.requireNonNull(listener, "Cable subscription listener must not be null");
        return subscribe(channel, new OrderedMailbox(listener, subscriberBuffer,
                (message, failure) -> failures.record(Failure.LISTENER, "Cable listener on channel '"
                        + message.channel() + "' failed for message " + message.id(), failure)));
    }

    @Override
    public Subscription subscribe(String channel, StreamPosition after, CableListener listener) {
        Objects.requireNonNull(listener, "Cable subscription listener must not be null");
        Objects.requireNonNull(after, "Cable subscription position must not be null");
        return subscribe(channel, recoveringMailbox(listener), new HistoryRequest.After(after), subscriberBuffer,
                EndOnFailure.FACTORY);
    }

    @Override
    public Optional<StreamPosition> position(String channel) {
        String problem = channelProblem(channel);
        if (problem != null) {
            throw new CableException.InvalidMessage(problem);
        }
        try {
            return transport.position(channel, ChannelHash.of(channel));
        } catch (StoreException e) {
            throw new CableException.StorageFailed("Cable position of '" + channel + "' could not be read", e.getCause());
        }
    }

    @Override
    public Subscription subscribe(String channel, Optional<StreamPosition> cursor, CableListener listener) {
        // Programming errors, not bad input: the standard exception, as for the other subscribe methods.
        Objects.requireNonNull(cursor, "Cable subscription cursor must not be null");
        if (cursor.isPresent()) {
            return subscribe(channel, cursor.get(), listener);
        }
        Objects.requireNonNull(listener, "Cable subscription listener must not be null");
        return subscribe(channel, recoveringMailbox(listener), new HistoryRequest.FromStart(), subscriberBuffer,
                EndOnFailure.FACTORY);
    }

    /** A listener's mailbox that takes the whole replay and the live messages held meanwhile at once. */
    private OrderedMailbox recoveringMailbox(CableListener listener) {
        return new OrderedMailbox(listener, subscriberBuffer + historySettings.maxReplay(),
                (message, failure) -> failures.record(Failure.LISTENER, "Cable listener on channel '"
                        + message.channel() + "' failed for message " + message.id(), failure));
    }

    /**
     * Subscribes {@code delivery} with a history step: live messages are held (at most {@code holdLimit}) while what
     * {@code request} asks for is read; then {@code outcome} decides what to do with the replay or the refusal (and
     * when to confirm), and takes the subscription live with {@link LocalSubscription#goLive}. The subscription's
     * starting line is recorded first, so replay and live meet without a gap or an overlap.
     */
    public LocalSubscription subscribe(String channel, Delivery delivery, HistoryRequest request, int holdLimit,
            RecoveryOutcome.Factory outcome) {
        return subscribe(channel, delivery, request, holdLimit, ReplayQuota.NONE, outcome);
    }

    /** As above, with the history step counted against its connection's {@code quota}. */
    public LocalSubscription subscribe(String channel, Delivery delivery, HistoryRequest request, int holdLimit,
            ReplayQuota quota, RecoveryOutcome.Factory outcome) {
        HeldDelivery held = new HeldDelivery(delivery, holdLimit);
        LocalSubscription subscription = newSubscription(channel, held);
        subscription.onStart(started -> new Recovery(transport.history(), stats).replay(started, request, quota,
                outcome.create(started)));
        transport.startSubscription(subscription);
        return subscription;
    }

    /**
     * A new connection's share of history steps in flight ({@code quarkus.cable.history.max-replays-per-connection});
     * its replays draw on the node's replay budget.
     */
    public ReplayQuota newReplayQuota() {
        return new ReplayQuota(replaysPerConnection, replayBudget);
    }

    /** The quota of a client's stream that is one history step by itself (SSE): only the node's replay budget. */
    public ReplayQuota streamReplayQuota() {
        return new ReplayQuota(Integer.MAX_VALUE, replayBudget);
    }

    /** Bytes of replayed messages admitted to clients and not yet handed to their sockets. */
    public long replayBytesInFlight() {
        return replayBudget.bytesInFlight();
    }

    /** Client replays in flight: between the start of their history step and the end of their writing. */
    public long replaysInFlight() {
        return replayBudget.replaysInFlight();
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
                subscribers);
        subscription.closed().whenComplete((ignored, failure) -> {
            if (failure instanceof CableException.SlowConsumer) {
                failures.record(Failure.SLOW_CONSUMER, "subscription", failure.getMessage(), null);
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

    /**
     * Why a broadcast's channel cannot be stored as it is, or null: a NUL character (PostgreSQL's text refuses it) or
     * a lone UTF-16 surrogate (drivers replace it while encoding, so the stored name would differ from the one
     * subscribers compare against). Checked before queueing so such a broadcast fails at the call on every database,
     * never inside a writer batch.
     */
    private static String unstorableChannel(String channel) {
        for (int i = 0; i < channel.length(); i++) {
            char c = channel.charAt(i);
            if (c == '\0') {
                return "Cable channel name contains a NUL character at index " + i + ", which databases cannot store";
            }
            if (Character.isHighSurrogate(c) && i + 1 < channel.length()
                    && Character.isLowSurrogate(channel.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return "Cable channel name contains a lone UTF-16 surrogate at index " + i
                        + ", which is not valid text (it cannot be stored as UTF-8)";
            }
        }
        return null;
    }

    /**
     * Records a failure of the front ends in the same counters and rate-limited log as the core's, rate-limited apart
     * from other causes of the kind. Every caller names its {@code cause} (a constant): an unnamed one would share
     * its kind's key, and a flood of it would hide the rest.
     */
    public void recordFailure(Failure kind, String cause, String message) {
        failures.record(kind, cause, message, null);
    }

    /** The rate-limited failure log (for failures that carry a throwable). */
    public FailureLog failureLog() {
        return failures;
    }

    /** A client refused by a bound: counted by reason, logged at most once per second per reason. */
    public void refused(CableStats.Refusal reason, String message) {
        stats.refused(reason);
        failures.record(Failure.LIMIT, reason.tag(), message, null);
    }

    @Override
    public String adapter() {
        return transport.adapter();
    }

    /**
     * Channels with at least one subscriber on this node, the cable's own included: what the poller reads (so never 0
     * on a started database node, which always reads the disconnect, whisper and presence channels).
     */
    public int channelCount() {
        return subscribers.channelCount();
    }

    /** Subscriptions on this node, the cable's own included. */
    public int subscriberCount() {
        return subscribers.subscriberCount();
    }

    /**
     * Channels the application subscribes on this node: {@link #channelCount} without the channels only the cable
     * reads ({@link IdentityChannels#isCableOwned}). What the metrics, health details and Dev UI report.
     */
    public int applicationChannelCount() {
        return subscribers.applicationChannelCount();
    }

    /** The application's subscriptions on this node: {@link #subscriberCount} without the cable's own readers. */
    public int applicationSubscriberCount() {
        return subscribers.applicationSubscriberCount();
    }

    /** Subscriptions on this node per channel name, for administration. */
    public Map<String, Integer> subscribersByChannel() {
        return subscribers.subscribersByChannel();
    }

    public CableStats stats() {
        return stats;
    }

    public Transport transport() {
        return transport;
    }

    public void start() {
        transport.start();
        transport.presence().changes(presence::changed);
    }

    public void stop() {
        transport.stop();
    }

    private CompletionStage<Void> send(String channel, byte[] payload, boolean binary, boolean joinTransaction,
            String excludedSession) {
        String problem = channelProblem(channel);
        if (problem == null) {
            problem = unstorableChannel(channel);
        }
        if (problem != null) {
            return rejected(new CableException.InvalidMessage(problem), joinTransaction);
        }
        if (payload.length > maxPayloadSize) {
            return rejected(new CableException.InvalidMessage("Cable broadcast payload on '" + channel + "' is "
                    + payload.length + " bytes, over quarkus.cable.max-payload-size (" + maxPayloadSize
                    + " bytes)"), joinTransaction);
        }
        stats.broadcastAccepted();
        // The size limit is the application's payload's; the stored row may carry the excluded session in front.
        byte[] stored = excludedSession == null ? payload : ExcludedSession.write(excludedSession, payload);
        OutgoingMessage message = new OutgoingMessage(channel, ChannelHash.of(channel), stored, binary,
                System.nanoTime(), new CompletableFuture<>());
        TransactionalBroadcasts joined = joinTransaction ? transactions : null;
        CompletableFuture<Void> inTransaction = joined == null ? null : joined.join(message);
        // Numbered only while a capture is open (tests), so its fence knows what it waits for.
        long tapped = taps.isEmpty() ? 0 : taps.accepted();
        CompletableFuture<Void> result;
        try {
            result = inTransaction != null ? inTransaction : sendCarrying(message);
        } catch (RuntimeException e) {
            if (tapped != 0) {
                taps.settled(tapped);
            }
            throw e;
        }
        result.whenComplete((ignored, failure) -> {
            if (failure == null && !taps.isEmpty()) {
                taps.committed(channel, payload, binary);
            }
            if (tapped != 0) {
                taps.settled(tapped);
            }
            if (failure == null || failure instanceof CableException.RolledBack) {
                // Stored, or the application's transaction decided: nothing failed in the cable.
            } else {
                failures.record(kindOf(failure), "broadcast",
                        "Cable broadcast on '" + channel + "' failed: " + failure.getMessage(),
                        failure instanceof CableException.StorageFailed
                                || failure instanceof CableException.CommitUnknown ? failure.getCause() : null);
            }
        });
        return result;
    }

    /**
     * Hands {@code message} to the transport with the calling thread's log MDC and trace, for the listeners an in-process
     * delivery reaches before this returns ({@link BroadcastContext}). Also what a transaction's broadcasts are sent with
     * after its commit, on the committing thread.
     */
    CompletableFuture<Void> sendCarrying(OutgoingMessage message) {
        BroadcastContext carried = carriesContext ? BroadcastContext.capture() : null;
        return carried == null ? transport.send(message)
                : BroadcastContext.whileDispatching(carried, () -> transport.send(message));
    }

    /**
     * A broadcast refused before queueing. Inside a transaction it would join, the refusal is thrown at the call and
     * the transaction is marked rollback-only, so its data never commits without the broadcast; otherwise it is the
     * failed stage.
     */
    private CompletionStage<Void> rejected(CableException failure, boolean joinTransaction) {
        failures.record(Failure.INVALID, "broadcast", failure.getMessage(), null);
        TransactionalBroadcasts joined = joinTransaction ? transactions : null;
        if (joined != null) {
            joined.refuseInTransaction(failure);
        }
        return CompletableFuture.failedFuture(failure);
    }

    private static Failure kindOf(Throwable failure) {
        if (failure instanceof CableException.QueueFull) {
            return Failure.QUEUE_FULL;
        }
        if (failure instanceof CableException.Stopped) {
            return Failure.STOPPED;
        }
        if (failure instanceof CableException.CommitUnknown) {
            return Failure.COMMIT_UNKNOWN;
        }
        if (failure instanceof CableException.InvalidMessage) {
            return Failure.INVALID;
        }
        return Failure.STORAGE;
    }
}
