package io.quarkiverse.cable.runtime.actioncable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

import io.quarkiverse.cable.CableConnectionEvent;
import io.quarkiverse.cable.SubscriptionRejected;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.CallbackContext;
import io.quarkiverse.cable.runtime.core.ConnectionOutbox;
import io.quarkiverse.cable.runtime.core.LocalSessions;
import io.quarkiverse.cable.runtime.core.PresenceSession;
import io.quarkiverse.cable.runtime.core.ReplayQuota;
import io.quarkiverse.cable.runtime.core.SerialExecutor;
import io.quarkiverse.cable.runtime.frontend.RateBucket;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.json.JsonObject;

/**
 * One {@code actioncable-v1-json} connection: its identification and its subscriptions. Frames from the client are
 * handled in order on the connection's {@link SerialExecutor} (so commands sent before the welcome wait for
 * identification, as Rails buffers them); frames to it go through its {@link ConnectionOutbox}. Bad input is logged
 * (rate-limited) and answered as Rails does; it never ends another subscription or connection.
 */
final class ActionCableConnection {

    /** RFC 6455 "internal error": the server could not open the connection; the client reconnects. */
    static final int INTERNAL_ERROR = 1011;

    final String id;
    final ConnectionOutbox outbox;
    /** Whether it speaks {@code actioncable-v1-ext-json}. */
    final boolean extended;
    /** The history steps this connection has in flight ({@code quarkus.cable.history.max-replays-per-connection}). */
    final ReplayQuota replayQuota;
    private final ActionCableServer server;
    private final SerialExecutor runner;
    private final Map<String, ActionCableSubscription> subscriptions = new ConcurrentHashMap<>();
    private final long openedNanos = System.nanoTime();
    private volatile Map<String, String> identifiers;
    /**
     * The upgrade request's security identity (null without Quarkus Security), resolved before identification: every
     * task of the runner, and so every application callback, runs in a request context with it associated.
     */
    private volatile SecurityIdentity identity;
    private volatile boolean answered;
    /** Set on the runner when the welcome went out; read there too (the Closed event). */
    private boolean welcomed;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile boolean closed;
    /** Set once a bound refused this connection: nothing more of it is queued. */
    private volatile boolean refused;
    private final CommandAdmission admission;
    /** This connection's presence session: every join, leave and the close's hand-off to the TTL go through it. */
    final PresenceSession presence;
    /**
     * This connection's session id (its presence session's): in the extended protocol's welcome, and on its whispers
     * so that every node can leave it out of their receivers. 128 random bits, unique across nodes.
     */
    final String sessionId;
    /** Guarded by itself; whispers are handled on the runner, one at a time. */
    private final RateBucket whisperRate;
    /** AnyCable's presence commands on this connection's subscriptions. */
    private final PresenceCommands presenceCommands;

    /** The disconnect reason of credentials that expired (AnyCable's, which its clients act on). */
    static final String TOKEN_EXPIRED = "token_expired";
    /** Cancels the timer of its credentials' expiry, when they expire. */
    private volatile Runnable expiry;

    /** RFC 6455 "try again later": the server cannot take more of this connection's commands now. */
    static final int TRY_AGAIN_LATER = 1013;

    ActionCableConnection(String id, ConnectionOutbox outbox, ActionCableServer server, boolean extended) {
        this.extended = extended;
        this.id = id;
        this.outbox = outbox;
        this.replayQuota = server.engine().newReplayQuota();
        this.server = server;
        this.presence = server.engine().presence().session();
        this.sessionId = presence.id();
        this.admission = new CommandAdmission(server.commandLimits());
        this.whisperRate = new RateBucket(server.whisperRate(), server.whisperBurst());
        this.presenceCommands = new PresenceCommands(id, outbox, server, subscriptions::get, this::invalid);
        // Not the rate-limited "invalid input" kind: a flood of bad frames elsewhere must not hide a server defect.
        this.runner = new SerialExecutor("cable-connection",
                failure -> server.connectionFailure("Action Cable connection " + id + " failed", failure));
    }

    Map<String, String> identifiers() {
        Map<String, String> current = identifiers;
        return current == null ? Map.of() : current;
    }

    /** The upgrade request's security identity; null without Quarkus Security. */
    SecurityIdentity identity() {
        return identity;
    }

    /**
     * Identification, then the welcome or the unauthorized disconnect; runs before any command. Whatever happens, the
     * client hears one of them or sees its socket closed: a client neither welcomed nor closed keeps answering pings
     * and never subscribes, a silently dead page.
     */
    void open(Supplier<SecurityIdentity> resolve,
            Function<SecurityIdentity, ConnectionIdentification.Identified> identify) {
        runner.execute(() -> {
            try {
                try {
                    identity = resolve.get();
                } catch (RuntimeException e) {
                    // Not resolved in time, or its provider failed: nobody to identify, as if identification refused.
                    server.listenerFailure("identification",
                            "Action Cable connection " + id + ": its security identity could not be resolved: " + e);
                    answered = true;
                    disconnect("unauthorized", false);
                    return;
                }
                CallbackContext.run(identity, () -> welcome(identify));
            } finally {
                if (!answered && !outbox.isClosing()) {
                    outbox.close(INTERNAL_ERROR, "cable: the connection could not be opened");
                }
            }
        });
    }

    /** Identification and its answer, in the connection's request context. */
    private void welcome(Function<SecurityIdentity, ConnectionIdentification.Identified> identify) {
        ConnectionIdentification.Identified found;
        try {
            found = identify.apply(identity);
        } catch (RuntimeException e) {
            server.listenerFailure("identification",
                    "Action Cable identification failed for connection " + id + ": " + e);
            found = null;
        }
        if (found == null) {
            answered = true;
            disconnect("unauthorized", false);
        } else if (found.expired()) {
            // As AnyCable answers an expired JWT: no reconnect with it; @anycable/core's tokenRefresher
            // fetches a fresh token on this reason and reconnects.
            answered = true;
            disconnect(TOKEN_EXPIRED, false);
        } else {
            identifiers = Map.copyOf(found.identifiers());
            answered = true;
            // Sessions are not restored: every welcome has a new sid, and the client re-subscribes with
            // history, which is exact (and runs authorization again).
            outbox.send(extended ? Frames.welcome(sessionId) : Frames.WELCOME);
            welcomed = true;
            markIdentityPresent();
            server.fire(new CableConnectionEvent.Opened(sessionId, identifiers, protocol()));
            if (found.expiresAt() != null) {
                expiry = server.expireAt(this, found.expiresAt());
                if (closed) {
                    expiry.run(); // closed meanwhile: its timer must not hold it until the expiry
                }
            }
        }
    }

    /**
     * With {@code quarkus.cable.presence.identity-events}: this session joins the identities' presence set, so the
     * identity's first session on the cluster (and later its last) is decided once, by the database.
     */
    private void markIdentityPresent() {
        Map<String, String> own = identifiers;
        if (!server.engine().presence().settings().identityEvents() || own.isEmpty()) {
            return;
        }
        String identity = io.quarkiverse.cable.runtime.core.IdentityChannels.of(own);
        if (identity.length() > io.quarkiverse.cable.runtime.core.Presence.MAX_ID_LENGTH) {
            server.listenerFailure("identity-events", "Action Cable connection " + id + ": its identity is over "
                    + io.quarkiverse.cable.runtime.core.Presence.MAX_ID_LENGTH
                    + " characters as a channel name; it is not tracked for CableIdentityEvent");
            return;
        }
        try {
            presence.join(io.quarkiverse.cable.runtime.core.IdentityChannels.IDENTITIES_PRESENT, identity, null);
        } catch (RuntimeException e) {
            server.listenerFailure("identity-events", "Action Cable connection " + id
                    + ": its identity could not be marked present: " + e);
        }
    }

    /** Whether the client was welcomed or told it is unauthorized; only then is it pinged, as Rails does. */
    boolean answered() {
        return answered;
    }

    /**
     * Whether this connection has been neither welcomed nor refused for longer than {@code boundNanos}: its
     * identification hangs, or opening it failed in a way nothing else noticed.
     */
    boolean unansweredFor(long boundNanos) {
        return !answered && !outbox.isClosing() && System.nanoTime() - openedNanos > boundNanos;
    }

    /**
     * A command frame of {@code bytes} (UTF-8): queued behind the ones before it (and behind identification) when the
     * connection's command bounds admit it; otherwise the connection is refused, and nothing more of it is queued.
     */
    void received(String frame, long bytes) {
        if (closed || refused) {
            return;
        }
        CableStats.Refusal refusal = admission.admit(bytes);
        if (refusal != null) {
            refuse(refusal);
            return;
        }
        runner.execute(() -> {
            try {
                CallbackContext.run(identity, () -> handle(frame));
            } finally {
                admission.done(bytes);
            }
        });
    }

    private void refuse(CableStats.Refusal refusal) {
        refused = true;
        CommandAdmission.Limits limits = server.commandLimits();
        if (refusal == CableStats.Refusal.COMMAND_RATE) {
            server.refused(refusal, "Action Cable connection " + id + " sent commands faster than "
                    + limits.rate() + " per second (quarkus.cable.limits.command-rate); disconnecting it");
            disconnect("too_many_commands", false, ConnectionOutbox.POLICY_VIOLATION, "command_rate");
        } else {
            server.refused(refusal, "Action Cable connection " + id + " has more than " + limits.maxQueued()
                    + " commands or " + limits.maxQueuedBytes() + " bytes waiting to be handled"
                    + " (quarkus.cable.limits.max-queued-commands/-bytes); disconnecting it");
            disconnect("too_many_pending_commands", true, TRY_AGAIN_LATER, "command_queue");
        }
    }

    void disconnect(String reason, boolean reconnect) {
        disconnect(reason, reconnect, 1000, reason == null ? "" : reason);
    }

    private void disconnect(String reason, boolean reconnect, int code, String closeReason) {
        outbox.sendLastAndClose(Frames.disconnect(reason, reconnect), code, closeReason);
    }

    /**
     * Its credentials expired while it was open: {@code {"type":"disconnect","reason":"token_expired",
     * "reconnect":false}}, then a close, as when it connects with expired ones.
     */
    void expired() {
        if (!closed && !outbox.isClosing()) {
            disconnect(TOKEN_EXPIRED, false);
        }
    }

    /** The socket closed: streams stop at once, then the channels' unsubscribed callbacks run in order. */
    void closed() {
        // Once: a slow consumer's streams stop before its socket's close handler runs, and the ping's sweep may find
        // a socket closed without one; the Closed event must fire once whichever comes first.
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        closed = true;
        Runnable cancel = expiry;
        if (cancel != null) {
            cancel.run();
        }
        List<ActionCableSubscription> subscribed = new ArrayList<>(subscriptions.values());
        subscriptions.clear();
        subscribed.forEach(ActionCableSubscription::stopStreams);
        runner.execute(() -> CallbackContext.run(identity, () -> {
            // Whatever it joined (its subscriptions' sets, the identities' set), including a join still committing on
            // another thread: its presence stays for the TTL, so a reconnect within it (a reload, a flaky network) is
            // invisible; a join that comes after this is refused by the session.
            try {
                presence.end();
            } catch (RuntimeException e) {
                server.listenerFailure("presence-ttl", "Action Cable connection " + id + ": its presence could not be handed to"
                        + " the TTL (the node's sweep ends it later): " + e);
            }
            subscribed.forEach(ActionCableSubscription::unsubscribed);
            // On the runner, behind the open task: a connection closed while it was being identified is welcomed (or
            // not) first, and only a welcomed one says it closed.
            if (welcomed) {
                server.fire(new CableConnectionEvent.Closed(sessionId, identifiers(), protocol()));
            }
        }));
    }

    String protocol() {
        return extended ? ActionCableProtocol.EXT_JSON : ActionCableProtocol.V1_JSON;
    }

    /** Subscriptions with their confirmation sent or on its way (for tests and metrics). */
    int subscriptionCount() {
        return subscriptions.size();
    }

    /** This connection as the Dev UI lists it: a copy of its current state. */
    LocalSessions.SessionView view() {
        List<String> identifiers = new ArrayList<>();
        List<String> presenceSets = new ArrayList<>();
        for (ActionCableSubscription subscription : subscriptions.values()) {
            identifiers.add(subscription.identifier());
            String set = subscription.presenceSet();
            if (set != null && !presenceSets.contains(set)) {
                presenceSets.add(set);
            }
        }
        return new LocalSessions.SessionView(id, protocol(), identifiers(), identifiers, presenceSets,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - openedNanos));
    }

    private void handle(String frame) {
        if (closed || identifiers == null) {
            return;
        }
        switch (ActionCableCommand.parse(frame)) {
            case ActionCableCommand.Invalid invalid -> invalid("command", invalid.problem());
            case ActionCableCommand.Ignored ignored -> {
            }
            case ActionCableCommand.Valid valid -> {
                ActionCableCommand command = valid.command();
                switch (command.verb()) {
                    case SUBSCRIBE -> subscribe(command.identifier(), command.data(), command.presence());
                    case HISTORY -> history(command.identifier());
                    case UNSUBSCRIBE -> unsubscribe(command.identifier());
                    case MESSAGE -> perform(command.identifier(), command.data());
                    case WHISPER -> whisper(command.identifier(), command.data());
                    case JOIN -> presenceCommands.join(command.identifier(), command.presence());
                    case LEAVE -> presenceCommands.leave(command.identifier());
                    case PRESENCE -> presenceCommands.presence(command.identifier(), command.data());
                }
            }
        }
    }

    /** Bad input, rate-limited per {@code cause} (a constant), so one kind of junk cannot hide another. */
    private void invalid(String cause, String problem) {
        server.invalid(cause, "Action Cable connection " + id + " " + problem);
    }

    /**
     * The extended protocol's {@code history} command, which clients send only after a restored welcome (never sent
     * here). For an identifier that is not subscribed there is no reply, as in AnyCable. For a live one the seam
     * between what it already received and a replay cannot be proven, so the answer is {@code reject_history}.
     */
    private void history(String identifier) {
        if (!extended) {
            invalid("command", "sent unknown command 'history'");
            return;
        }
        ActionCableSubscription subscription = subscriptions.get(identifier);
        if (subscription != null) {
            outbox.send(Frames.rejectHistory(subscription.encodedIdentifier()));
        }
    }

    private void subscribe(String identifier, Object history, Object presence) {
        if (subscriptions.containsKey(identifier)) {
            return; // the client retries until confirmed; never confirm twice
        }
        if (identifier.length() > server.maxIdentifierSize()
                || ConnectionOutbox.utf8Length(identifier) > server.maxIdentifierSize()) {
            server.refused(CableStats.Refusal.IDENTIFIER_SIZE, "Action Cable connection " + id
                    + " subscribed with an identifier over quarkus.cable.limits.max-identifier-size ("
                    + server.maxIdentifierSize() + " bytes): " + ActionCableCommand.clip(identifier)
                    + " (subscription rejected)");
            outbox.send(Frames.reject(io.vertx.core.json.Json.encode(identifier)));
            return;
        }
        if (subscriptions.size() >= server.maxSubscriptions()) {
            server.refused(CableStats.Refusal.SUBSCRIPTIONS, "Action Cable connection " + id
                    + " subscribed beyond quarkus.cable.limits.max-subscriptions (" + server.maxSubscriptions()
                    + "): " + ActionCableCommand.clip(identifier) + " (subscription rejected)");
            outbox.send(Frames.reject(io.vertx.core.json.Json.encode(identifier)));
            return;
        }
        JsonObject params = ActionCableCommand.params(identifier);
        if (params == null) {
            invalid("subscribe", "sent an identifier that is not a JSON object: " + ActionCableCommand.clip(identifier));
            outbox.send(Frames.reject(io.vertx.core.json.Json.encode(identifier)));
            return;
        }
        ActionCableSubscription subscription = new ActionCableSubscription(this, server, identifier, params,
                extended ? HistoryPlan.of(history) : null);
        Object channelName = params.getValue("channel");
        ChannelRegistry.Channel channel = channelName instanceof String name ? server.registry().channel(name) : null;
        if (channel == null) {
            unknownChannel(channelName);
            subscription.reject(UNKNOWN_CHANNEL);
        } else {
            try {
                subscription.subscribed(channel);
                if (subscription.rejectionReason() != null) {
                    rejected(channel, subscription.rejectionReason());
                }
            } catch (ChannelMethod.BadArgument e) {
                invalid("subscribe", "subscribed to " + channel.name() + " with " + ActionCableCommand.clip(identifier)
                        + ", and " + e.getMessage() + " (subscription rejected)");
                subscription.reject(e.reason());
            } catch (SubscriptionRejected e) {
                rejected(channel, e.getMessage());
                subscription.reject(e.getMessage());
            } catch (ForbiddenException | UnauthorizedException e) {
                server.forbidden("subscribed", "Action Cable connection " + id + ": Quarkus Security refused "
                        + channel.name() + ".subscribed (" + e.getClass().getSimpleName() + "); subscription rejected");
                subscription.reject(e instanceof UnauthorizedException ? "unauthorized" : "forbidden");
            } catch (Exception | Error e) {
                server.listenerFailure("subscribed", "Action Cable channel " + channel.name() + " failed in subscribed: " + e);
                subscription.reject();
            }
        }
        if (subscription.isRejected()) {
            subscription.stopStreams();
            outbox.send(Frames.reject(subscription.encodedIdentifier(), subscription.rejectionReason()));
            return;
        }
        subscriptions.put(identifier, subscription);
        if (presence != null) {
            ActionCableSubscription.PendingJoin join = PresenceCommands.presenceJoin(presence);
            if (join != null) {
                subscription.joinWhenConfirmed(join);
            }
        }
        // The confirmation waits for the streams' starting lines without holding this connection's commands: a
        // database that is slow to answer delays the confirm, never the next command or another connection.
        CompletableFuture<Void> started = subscription.streamsStarted();
        if (started.isDone()) {
            started(subscription, started.isCompletedExceptionally() ? started.handle((ok, e) -> e).join() : null);
        } else {
            started.whenComplete((ok, failure) -> runner.execute(
                    () -> CallbackContext.run(identity, () -> started(subscription, failure))));
        }
    }

    /** The reason a subscription to a channel nobody declared is rejected with. */
    static final String UNKNOWN_CHANNEL = "unknown channel";

    /** How many known channel names the log line of an unknown one lists, the closest first. */
    private static final int LISTED_CHANNELS = 8;

    private void unknownChannel(Object channelName) {
        // Clipped before the distances are measured: a client's name costs at most the clip's length.
        String name = ActionCableCommand.clip(String.valueOf(channelName));
        List<String> known = server.registry().namesClosestTo(name);
        String listed = String.join(", ", known.subList(0, Math.min(LISTED_CHANNELS, known.size())))
                + (known.size() > LISTED_CHANNELS ? " and " + (known.size() - LISTED_CHANNELS) + " more" : "");
        invalid("subscribe", "subscribed to no channel " + name + " (subscription rejected); the known channels,"
                + " closest first: " + listed);
    }

    /** The channel rejected a subscription with a reason: one rate-limited line, as bad input of cause "rejected". */
    private void rejected(ChannelRegistry.Channel channel, String reason) {
        invalid("rejected", "was rejected by channel " + channel.name() + ": " + ActionCableCommand.clip(
                String.valueOf(reason)));
    }

    /** On the runner, so it is ordered with unsubscribe and close. */
    private void started(ActionCableSubscription subscription, Throwable failure) {
        if (subscriptions.get(subscription.identifier()) != subscription) {
            return; // unsubscribed or closed meanwhile: its streams are already stopped
        }
        if (failure != null) {
            subscriptions.remove(subscription.identifier(), subscription);
            invalid("subscribe", "could not start the streams of " + ActionCableCommand.clip(subscription.identifier()) + ": "
                    + failure);
            subscription.stopStreams();
            outbox.send(Frames.reject(subscription.encodedIdentifier()));
            return;
        }
        subscription.confirm();
        subscription.historyReady();
        subscription.joinPending();
    }

    private void unsubscribe(String identifier) {
        ActionCableSubscription subscription = subscriptions.remove(identifier);
        if (subscription == null) {
            invalid("unsubscribe", "unsubscribed from " + ActionCableCommand.clip(identifier) + ", which is not subscribed");
            return;
        }
        // An explicit unsubscribe leaves the presence set at once; a closed connection leaves after the TTL.
        try {
            subscription.leavePresence();
        } catch (io.quarkiverse.cable.CableException e) {
            invalid("presence", "could not leave presence on " + ActionCableCommand.clip(identifier)
                    + " (it ends with the connection's TTL): " + e);
        }
        subscription.stopStreams();
        subscription.unsubscribed();
    }

    /**
     * A whisper: to the other subscribers of the subscription's whisper stream, when its channel allowed one
     * ({@code whisperTo}); dropped otherwise, over {@code quarkus.cable.limits.max-whisper-size} and over
     * {@code quarkus.cable.limits.whisper-rate}. No answer either way,
     * as in AnyCable: a whisper is best effort.
     */
    private void whisper(String identifier, Object data) {
        if (!server.whispersEnabled()) {
            invalid("whisper", "whispered, and whispers are off (quarkus.cable.action-cable.whispers.enabled=false)");
            return;
        }
        ActionCableSubscription subscription = subscriptions.get(identifier);
        if (subscription == null) {
            invalid("whisper", "whispered on " + ActionCableCommand.clip(identifier) + ", which is not subscribed");
            return;
        }
        if (subscription.whisperStream() == null) {
            invalid("whisper", "whispered on " + ActionCableCommand.clip(identifier) + ", whose channel "
                    + subscription.channel().name() + " allows no whispers (ChannelSubscription.whisperTo)");
            return;
        }
        String dataJson = io.vertx.core.json.Json.encode(data);
        // Checked before the rate, so a refused whisper costs no token. UTF-8 bytes: what the database row holds.
        long size = ConnectionOutbox.utf8Length(dataJson);
        if (size > server.maxWhisperSize()) {
            server.refused(CableStats.Refusal.WHISPER_SIZE, "Action Cable connection " + id + " whispered " + size
                    + " bytes, over " + server.maxWhisperSize()
                    + " (quarkus.cable.limits.max-whisper-size); whisper dropped");
            return;
        }
        boolean admitted;
        synchronized (whisperRate) {
            admitted = whisperRate.take();
        }
        if (!admitted) {
            server.refused(CableStats.Refusal.WHISPER_RATE, "Action Cable connection " + id + " whispered faster than "
                    + server.whisperRate() + " per second (quarkus.cable.limits.whisper-rate); whispers dropped");
            return;
        }
        Object outgoing;
        try {
            outgoing = subscription.handler().whispered(subscription, data);
        } catch (ForbiddenException | UnauthorizedException e) {
            server.forbidden("whisper", "Action Cable connection " + id + ": Quarkus Security refused "
                    + subscription.channel().name() + ".whispered (" + e.getClass().getSimpleName()
                    + "); whisper dropped");
            return;
        } catch (RuntimeException e) {
            server.listenerFailure("whisper", "Action Cable connection " + id + ": " + subscription.channel().name()
                    + ".whispered failed; the whisper is dropped: " + e);
            return;
        }
        if (outgoing == null) {
            invalid("whisper", "whispered on " + ActionCableCommand.clip(identifier) + ", and its channel "
                    + subscription.channel().name() + " refused the whisper (ChannelHandler.whispered)");
            return;
        }
        subscription.whisper(server.engine().jsonText(outgoing));
    }

    private void perform(String identifier, Object data) {
        ActionCableSubscription subscription = subscriptions.get(identifier);
        if (subscription == null) {
            invalid("message", "sent a message for " + ActionCableCommand.clip(identifier) + ", which is not subscribed");
            return;
        }
        JsonObject payload = ActionCableCommand.messageData(data);
        if (payload == null) {
            invalid("message", "sent message data that is not a JSON object string");
            return;
        }
        String action = ActionCableCommand.action(payload);
        ChannelRegistry.Channel channel = subscription.channel();
        ChannelMethod invoker = action == null ? null : channel.action(action);
        if (invoker == null) {
            invalid("message", "sent a message that is unable to process " + channel.name() + "#"
                    + ActionCableCommand.clip(String.valueOf(payload.getValue("action"))));
            return;
        }
        try {
            invoker.invoke(subscription.bean(), subscription, identity, payload, server.objectMapper());
        } catch (ChannelMethod.BadArgument e) {
            invalid("message", "sent " + channel.name() + "#" + ActionCableCommand.clip(action) + " " + e.getMessage());
        } catch (ForbiddenException | UnauthorizedException e) {
            // The security interceptor of the action (@RolesAllowed, @Authenticated, @PermissionsAllowed) refused this
            // connection's identity: the client is told, under its subscription, and the connection goes on. A client
            // can repeat it at its command rate, so: one frame per command, one rate-limited line, no stack trace.
            String refusal = e instanceof UnauthorizedException ? "unauthorized" : "forbidden";
            server.forbidden("action", "Action Cable connection " + id + ": Quarkus Security refused " + channel.name()
                    + "#" + action + " (" + refusal + ")");
            outbox.send(Frames.actionRefused(subscription.encodedIdentifier(), action, refusal));
        } catch (Exception | StackOverflowError | AssertionError | LinkageError e) {
            // The application's failure, often provoked by what a client sent: one rate-limited line (kind listener,
            // cause action), no stack trace per command. (Other errors, an OutOfMemoryError, go to the runner.)
            server.listenerFailure("action", "Action Cable channel " + channel.name() + "#"
                    + ActionCableCommand.clip(action) + " failed: " + e);
        }
    }
}
