package io.quarkiverse.cable.runtime.actioncable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.runtime.core.ConnectionOutbox;
import io.quarkiverse.cable.runtime.core.Delivery;
import io.quarkiverse.cable.runtime.core.EncodedFrames;
import io.quarkiverse.cable.runtime.core.GroupRecovery;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkiverse.cable.runtime.core.LocalSubscription;
import io.quarkiverse.cable.runtime.core.PresenceEvents;
import io.quarkiverse.cable.runtime.core.ReplayLease;
import io.quarkiverse.cable.runtime.frontend.RateBucket;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * One identifier on one Action Cable connection: its channel handler, its cable streams, and the gate that keeps every
 * frame of it behind its {@code confirm_subscription}.
 */
class ActionCableSubscription implements ChannelSubscription {

    private static final Logger LOG = Logger.getLogger(ActionCableSubscription.class);

    private final ActionCableConnection connection;
    private final ActionCableServer server;
    private final ConnectionOutbox outbox;
    private final String identifier;
    private final String encodedIdentifier;
    private final JsonObject params;
    private final Map<String, LocalSubscription> streams = new ConcurrentHashMap<>();
    /**
     * The streams whose whispers this subscription hears (every subscriber does, no opt-in, as in AnyCable), each with
     * the moment this node reads them from.
     */
    private final Map<String, CompletableFuture<Void>> whisperListening = new ConcurrentHashMap<>();
    /** The stream this subscription's client may whisper to ({@link #whisperTo}), or null: it may not. */
    private volatile String whisperStream;
    /** The presence set this subscription's client may join and read ({@link #presenceIn}), or null. */
    private volatile String presenceChannel;
    /** When this node hears the presence set's joins and leaves; null without a presence set. */
    private volatile CompletableFuture<Void> presenceListening;
    /** The presence id this subscription joined its set as, or null; changed on the connection's runner only. */
    private volatile String joinedAs;
    /** A join asked for before the confirmation, made once confirmed (on the runner). */
    private volatile PendingJoin pendingJoin;
    /** Set by the channel ({@link #allowClientChosenPresenceIds}): the client's presence ids are not checked. */
    private volatile boolean clientChosenIds;
    /**
     * The joins and leaves the client may ask for on this subscription: presence.changes-per-second, bursts of five
     * seconds' worth. Per subscription, as the harm is per presence set (with presence.in-stream each change is a
     * message of the channel's stream, taking a place in its replay window); a page joining many rooms at once is
     * bounded by the command rate instead.
     */
    private final RateBucket presenceChanges;
    private final PresenceEvents.Listener presenceListener = event -> deliver(
            Frames.presence(encodedIdentifier(), event.eventJson()));
    private final Object gate = new Object();
    private volatile ChannelRegistry.Channel channel;
    /** The channel's bean, set when the subscription callback runs: only then is the unsubscription one called. */
    private volatile Object bean;
    private volatile boolean rejected;
    /** Why it was rejected, for the client and the log; null: no reason given. */
    private volatile String rejectionReason;
    private List<Object> held = new ArrayList<>();
    private volatile boolean confirmed;
    private final boolean extended;
    /** The history the client asked for on subscribe (extended protocol), or null. */
    private final HistoryPlan history;
    /** The history step of the streams started in {@code subscribed}; null without a history request. */
    private final GroupRecovery recovery;
    /** The history step of {@code streamFrom(channel, cursor)} without a history request; created on first use. */
    private GroupRecovery cursorRecovery;

    ActionCableSubscription(ActionCableConnection connection, ActionCableServer server, String identifier,
            JsonObject params, HistoryPlan history) {
        this.extended = connection.extended;
        this.history = history;
        this.recovery = history == null ? null : new GroupRecovery(new GroupRecovery.Answer() {
            @Override
            public void replayed(List<CableMessage> replay, ReplayLease lease) {
                // After the confirmation (the group answers once the protocol confirmed). Paced by the connection's
                // byte bound: each frame is made when there is room for it, so a long replay to a client that stops
                // reading holds a bounded part of it, and live frames wait behind it in order. Each frame made gives
                // its message's share of the node's replay budget back; the last one closes the lease (a connection
                // that closes first ends the streams, which closes it).
                outbox.sendPaced(Stream.concat(replay.stream().map(message -> {
                    lease.written(message);
                    return (Object) Frames.extendedBroadcast(encodedIdentifier, message);
                }), Stream.of(Frames.confirmHistory(encodedIdentifier)).map(confirm -> {
                    lease.close();
                    return (Object) confirm;
                })).iterator());
            }

            @Override
            public void refused(String reason) {
                deliver(Frames.rejectHistory(encodedIdentifier));
            }
        });
        this.connection = connection;
        this.server = server;
        this.presenceChanges = new RateBucket(server.presenceChangesPerSecond(), 5L * server.presenceChangesPerSecond());
        this.outbox = connection.outbox;
        this.identifier = identifier;
        this.encodedIdentifier = Json.encode(identifier);
        this.params = params;
    }

    /**
     * Runs the channel's subscription callback, its {@code @OnSubscribe} method or else its
     * {@link ChannelHandler#subscribed}; the channel may stream, transmit or reject from it. What the callback throws
     * is thrown as it is; a {@link ChannelMethod.BadArgument} means the method was not called.
     */
    void subscribed(ChannelRegistry.Channel channel) throws Exception {
        this.channel = channel;
        Object created = channel.bean();
        this.bean = created;
        ChannelMethod onSubscribe = channel.callback(ChannelRegistry.Callback.SUBSCRIBE);
        if (onSubscribe != null) {
            onSubscribe.invoke(created, this, connection.identity(), null, server.objectMapper());
        } else if (created instanceof ChannelHandler handler) {
            handler.subscribed(this);
        }
    }

    ChannelRegistry.Channel channel() {
        return channel;
    }

    /** The channel's bean the subscription was made with. */
    Object bean() {
        return bean;
    }

    /** The channel as a {@link ChannelHandler} (for whispers): its bean, or the interface's defaults. */
    ChannelHandler handler() {
        return ChannelRegistry.Channel.handler(bean);
    }

    String encodedIdentifier() {
        return encodedIdentifier;
    }

    /** Completes when every stream started in {@code subscribed} has its starting line. */
    CompletableFuture<Void> streamsStarted() {
        // The whisper and presence receivers too: what is sent after the confirmation reaches this subscriber.
        CompletableFuture<Void> presence = presenceListening;
        return CompletableFuture.allOf(Stream.concat(Stream.concat(
                streams.values().stream().map(stream -> stream.confirmed().toCompletableFuture()),
                whisperListening.values().stream()), presence == null ? Stream.empty() : Stream.of(presence))
                .toArray(CompletableFuture[]::new));
    }

    @Override
    public String identifier() {
        return identifier;
    }

    @Override
    public JsonObject params() {
        return params.copy();
    }

    @Override
    public Map<String, String> connectionIdentifiers() {
        return connection.identifiers();
    }

    @Override
    public void streamFrom(String cableChannel) {
        if (streams.containsKey(cableChannel) || reserved(cableChannel)) {
            return;
        }
        EncodedFrames frames = server.acquireFrames(identifier, extended);
        LocalSubscription stream;
        int limit = outbox.limits().maxPendingFrames();
        try {
            Delivery delivery = Delivery.forSession(sessionId(), Delivery.direct(frames::frameFor, this::deliver, limit));
            // Streams started in subscribed() with a history request recover; later ones are plain.
            stream = recovery != null && !confirmed
                    ? server.engine().subscribe(cableChannel, delivery, history.requestFor(cableChannel), limit,
                            connection.replayQuota, recovery.member())
                    : server.engine().subscribe(cableChannel, delivery);
        } catch (RuntimeException e) {
            server.releaseFrames(identifier, extended);
            throw e;
        }
        stream.closed().whenComplete((ignored, failure) -> server.releaseFrames(identifier, extended));
        streams.put(cableChannel, stream);
        receiveWhispers(cableChannel);
    }

    @Override
    public void streamFrom(String cableChannel, java.util.Optional<io.quarkiverse.cable.StreamPosition> cursor) {
        if (reserved(cableChannel)) {
            return;
        }
        if (confirmed || streams.containsKey(cableChannel)) {
            streamFrom(cableChannel);
            return;
        }
        io.quarkiverse.cable.spi.HistoryRequest fromCursor = cursor.isPresent()
                ? new io.quarkiverse.cable.spi.HistoryRequest.After(cursor.get())
                : new io.quarkiverse.cable.spi.HistoryRequest.FromStart();
        GroupRecovery group;
        io.quarkiverse.cable.spi.HistoryRequest request;
        if (recovery != null) {
            // The client's own position (a reconnect) is newer than the page's; without one, the cursor beats since.
            group = recovery;
            request = history.positions().containsKey(cableChannel) ? history.requestFor(cableChannel) : fromCursor;
        } else {
            group = cursorRecovery();
            request = fromCursor;
        }
        EncodedFrames frames = server.acquireFrames(identifier, extended);
        LocalSubscription stream;
        int limit = outbox.limits().maxPendingFrames();
        try {
            Delivery delivery = Delivery.forSession(sessionId(), Delivery.direct(frames::frameFor, this::deliver, limit));
            stream = server.engine().subscribe(cableChannel, delivery, request, limit, group.member());
        } catch (RuntimeException e) {
            server.releaseFrames(identifier, extended);
            throw e;
        }
        stream.closed().whenComplete((ignored, failure) -> server.releaseFrames(identifier, extended));
        streams.put(cableChannel, stream);
        receiveWhispers(cableChannel);
    }

    /** The others' whispers to {@code cableChannel}, live only: they are never stored in its history. */
    private void receiveWhispers(String cableChannel) {
        if (server.whispersEnabled()) {
            whisperListening.put(cableChannel, server.whispers().listen(cableChannel, this));
        }
    }

    /** The connection's session id: its welcome's {@code sid}, carried by its own whispers and broadcasts to others. */
    @Override
    public String sessionId() {
        return connection.sessionId;
    }

    /** Another connection's whisper to a stream this subscription streams (on the poller: never blocks). */
    void whispered(String dataJson) {
        deliver(Frames.message(encodedIdentifier, dataJson));
    }

    @Override
    public void whisperTo(String cableChannel) {
        if (reserved(cableChannel)) {
            return;
        }
        String problem = server.engine().channelProblem(cableChannel);
        if (problem != null) {
            throw new CableException.InvalidMessage(problem);
        }
        whisperStream = cableChannel;
    }

    String whisperStream() {
        return whisperStream;
    }

    /** A join to make once the subscription is confirmed; {@code fromClient}: the client chose the id. */
    record PendingJoin(String presenceId, String infoJson, boolean fromClient) {
    }

    @Override
    public String connectionPresenceId() {
        Map<String, String> identifiers = connection.identifiers();
        if (identifiers == null || identifiers.isEmpty()) {
            return null;
        }
        if (identifiers.size() == 1) {
            return identifiers.values().iterator().next();
        }
        return IdentityChannels.of(identifiers).substring(IdentityChannels.PREFIX.length());
    }

    @Override
    public void allowClientChosenPresenceIds() {
        clientChosenIds = true;
    }

    /** The presence set this subscription is in ({@link #presenceIn}), or null: for the Dev UI. */
    String presenceSet() {
        return presenceChannel;
    }

    @Override
    public void presenceIn(String cableChannel) {
        if (reserved(cableChannel)) {
            return;
        }
        String problem = server.engine().channelProblem(cableChannel);
        if (problem != null) {
            throw new CableException.InvalidMessage(problem);
        }
        String previous = presenceChannel;
        if (cableChannel.equals(previous)) {
            return;
        }
        if (previous != null) {
            leavePresence();
            server.engine().presence().events().stopListening(previous, presenceListener);
        }
        presenceChannel = cableChannel;
        presenceListening = server.engine().presence().events().listen(cableChannel, presenceListener);
    }

    @Override
    public void joinPresence(String presenceId, Object info) {
        if (presenceChannel == null) {
            throw new IllegalStateException("joinPresence needs a presence set: call presenceIn(channel) first");
        }
        String infoJson = info == null ? null : server.engine().jsonText(info);
        if (!confirmed) {
            pendingJoin = new PendingJoin(presenceId, infoJson, false);
            return;
        }
        String problem = join(presenceId, infoJson);
        if (problem != null) {
            throw new CableException.InvalidMessage("Cable presence join refused: " + problem);
        }
    }

    /** Remembers a client's join sent with its subscribe, to make once confirmed. */
    void joinWhenConfirmed(PendingJoin join) {
        pendingJoin = join;
    }

    /** After the confirmation and the history answer's start: the join asked for before, if any. */
    void joinPending() {
        PendingJoin join = pendingJoin;
        pendingJoin = null;
        if (join != null) {
            String problem = join.fromClient() ? clientJoin(join.presenceId(), join.infoJson())
                    : join(join.presenceId(), join.infoJson());
            if (problem != null) {
                server.invalid("presence", "Action Cable connection " + connection.id + " could not join presence on "
                        + ActionCableCommand.clip(identifier) + ": " + problem);
                deliver(Frames.presenceError(encodedIdentifier));
            }
        }
    }

    /**
     * The client's own join (the {@code join} command, or the presence sent with its subscribe): as its connection's
     * presence id only, unless the channel allowed client-chosen ids. Returns why it could not join, or null.
     */
    String clientJoin(String presenceId, String infoJson) {
        if (!clientChosenIds) {
            String own = connectionPresenceId();
            if (own == null) {
                return "an anonymous connection cannot join presence on its own (the channel can join it with"
                        + " ChannelSubscription.joinPresence, or allow client-chosen ids)";
            }
            if (!own.equals(presenceId)) {
                return "a client joins as its connection's identity (ChannelSubscription.connectionPresenceId), not as"
                        + " another id; the channel can allow client-chosen ids"
                        + " (ChannelSubscription.allowClientChosenPresenceIds)";
            }
        }
        return join(presenceId, infoJson);
    }

    /** Whether the client may ask for one more join or leave on this subscription now; takes its token if so. */
    boolean admitPresenceChange() {
        synchronized (presenceChanges) {
            return presenceChanges.take();
        }
    }

    /**
     * Joins the presence set as {@code presenceId} (on the runner; blocks for the database); returns why it could
     * not, or null. A second join with the same id only updates the info, as in AnyCable; another id is refused.
     */
    String join(String presenceId, String infoJson) {
        String set = presenceChannel;
        if (set == null) {
            return "its channel " + channel.name() + " has no presence set (ChannelSubscription.presenceIn)";
        }
        String joined = joinedAs;
        if (joined != null && !joined.equals(presenceId)) {
            return "it joined as another presence id already (leave first)";
        }
        // Presence.join checks the id and the info itself (an InvalidMessage naming the problem).
        try {
            connection.presence.join(set, presenceId, infoJson);
        } catch (CableException e) {
            return e.getMessage();
        }
        joinedAs = presenceId;
        return null;
    }

    @Override
    public void leavePresence() {
        String joined = joinedAs;
        String set = presenceChannel;
        pendingJoin = null;
        if (joined == null || set == null) {
            return;
        }
        joinedAs = null;
        connection.presence.leave(set, joined);
    }

    /** The presence set's snapshot for a {@code presence} command, or null without a presence set. */
    String presenceInfo(boolean withRecords) {
        String set = presenceChannel;
        if (set == null) {
            return null;
        }
        return Frames.presenceInfo(encodedIdentifier, server.engine().presence().snapshot(set), withRecords);
    }

    /**
     * Sends a client's whisper ({@code dataJson}) through the database to every subscriber of the whisper stream on
     * every node, this connection excluded. Best effort: nothing waits for the write, a failure is the writer's to
     * report.
     */
    void whisper(String dataJson) {
        String stream = whisperStream;
        server.whispers().send(connection.sessionId, stream, dataJson).whenComplete((ok, failure) -> {
            if (failure != null) {
                LOG.debugf("Action Cable connection %s: a whisper to %s was not written: %s", connection.id, stream,
                        failure);
            }
        });
    }

    /**
     * Another identity's channel, or the cable's control channel: whatever the channel computed the name from (often a
     * client's parameter), it is not streamed, and a subscription still being set up is rejected.
     */
    private boolean reserved(String cableChannel) {
        if (!IdentityChannels.refused(cableChannel, connection.identifiers())) {
            return false;
        }
        server.invalid("reserved", "Action Cable connection " + connection.id + " asked to stream reserved channel "
                + ActionCableCommand.clip(cableChannel) + " of another identity (refused)");
        rejected = true;
        return true;
    }

    /** The history step of cursor streams of a subscription that asked for no history itself. */
    private synchronized GroupRecovery cursorRecovery() {
        if (cursorRecovery == null) {
            cursorRecovery = new GroupRecovery(new GroupRecovery.Answer() {
                @Override
                public void replayed(List<CableMessage> replay, ReplayLease lease) {
                    // Queued at once under the connection's own byte bound: the budget's share goes back with it.
                    try {
                        for (CableMessage message : replay) {
                            deliver(extended ? Frames.extendedBroadcast(encodedIdentifier, message)
                                    : Frames.broadcast(encodedIdentifier, message));
                        }
                    } finally {
                        lease.close();
                    }
                }

                @Override
                public void refused(String reason) {
                    server.listenerFailure("page-cursor", "Action Cable: the history after the page cursor of " + identifier
                            + " is not available (" + reason + "): streaming live only");
                    if (extended) {
                        deliver(Frames.rejectHistory(encodedIdentifier));
                    }
                }
            });
        }
        return cursorRecovery;
    }

    @Override
    public void stopStream(String cableChannel) {
        LocalSubscription stream = streams.remove(cableChannel);
        if (stream != null) {
            stream.close();
        }
        if (whisperListening.remove(cableChannel) != null) {
            server.whispers().stopListening(cableChannel, this);
        }
    }

    @Override
    public void reject() {
        rejected = true;
    }

    @Override
    public void reject(String reason) {
        rejectionReason = reason;
        rejected = true;
    }

    /** Why the subscription was rejected, or null: no reason was given. */
    String rejectionReason() {
        return rejectionReason;
    }

    @Override
    public boolean isRejected() {
        return rejected;
    }

    @Override
    public void transmit(Object message) {
        deliver(Frames.message(encodedIdentifier, server.engine().jsonText(message)));
    }

    /** Frames that arrive before the confirmation wait for it, so a client never sees data before the confirm. */
    private boolean deliver(Object frame) {
        if (!confirmed) {
            synchronized (gate) {
                if (!confirmed) {
                    if (held.size() >= outbox.limits().maxPendingFrames()) {
                        return false;
                    }
                    held.add(frame);
                    return true;
                }
            }
        }
        outbox.send(frame);
        return true;
    }

    void confirm() {
        synchronized (gate) {
            outbox.send(Frames.confirm(encodedIdentifier));
            held.forEach(outbox::send);
            held = null;
            confirmed = true;
        }
    }

    /**
     * After {@code confirm_subscription}: the history answer (replay and {@code confirm_history}, or
     * {@code reject_history}) goes out once every stream's history step reported, then the held live frames.
     */
    void historyReady() {
        if (recovery != null) {
            recovery.ready();
        }
        GroupRecovery cursors;
        synchronized (this) {
            cursors = cursorRecovery;
        }
        if (cursors != null) {
            cursors.ready();
        }
    }

    void stopStreams() {
        streams.values().forEach(LocalSubscription::close);
        streams.clear();
        whisperListening.keySet().forEach(stream -> server.whispers().stopListening(stream, this));
        whisperListening.clear();
        String set = presenceChannel;
        if (set != null) {
            server.engine().presence().events().stopListening(set, presenceListener);
        }
    }

    /**
     * The channel's unsubscription callback, its {@code @OnUnsubscribe} method or else its
     * {@link ChannelHandler#unsubscribed}, when its subscription callback ran.
     */
    void unsubscribed() {
        Object subscribed = bean;
        if (subscribed == null) {
            return;
        }
        try {
            ChannelMethod onUnsubscribe = channel.callback(ChannelRegistry.Callback.UNSUBSCRIBE);
            if (onUnsubscribe != null) {
                onUnsubscribe.invoke(subscribed, this, connection.identity(), null, server.objectMapper());
            } else if (subscribed instanceof ChannelHandler handler) {
                handler.unsubscribed(this);
            }
        } catch (Exception | Error e) {
            server.listenerFailure("unsubscribed", "Action Cable channel " + channel.name() + " failed in unsubscribed: " + e);
        }
    }
}
