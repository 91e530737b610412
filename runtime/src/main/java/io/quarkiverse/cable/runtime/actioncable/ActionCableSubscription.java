package io.quarkiverse.cable.runtime.actioncable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.runtime.delivery.DirectDelivery;
import io.quarkiverse.cable.runtime.subscribers.LocalSubscription;
import io.quarkiverse.cable.runtime.websocket.ConnectionOutbox;
import io.quarkiverse.cable.runtime.websocket.EncodedFrames;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * One identifier on one Action Cable connection: its channel handler, its cable streams, and the gate that keeps every
 * frame of it behind its {@code confirm_subscription}.
 */
class ActionCableSubscription implements ChannelSubscription {

    private final ActionCableConnection connection;
    private final ActionCableServer server;
    private final ConnectionOutbox outbox;
    private final String identifier;
    private final String encodedIdentifier;
    private final JsonObject params;
    private final Map<String, LocalSubscription> streams = new ConcurrentHashMap<>();
    private final Object gate = new Object();
    private volatile ChannelRegistry.Channel channel;
    private volatile ChannelHandler handler;
    private volatile boolean rejected;
    private List<Object> held = new ArrayList<>();
    private volatile boolean confirmed;

    ActionCableSubscription(ActionCableConnection connection, ActionCableServer server, String identifier,
            JsonObject params) {
        this.connection = connection;
        this.server = server;
        this.outbox = connection.outbox;
        this.identifier = identifier;
        this.encodedIdentifier = Json.encode(identifier);
        this.params = params;
    }

    /** Runs the channel's {@code subscribed} callback; the channel may stream, transmit or reject from it. */
    void subscribed(ChannelRegistry.Channel channel) {
        this.channel = channel;
        ChannelHandler created = channel.handler();
        this.handler = created;
        created.subscribed(this);
    }

    ChannelRegistry.Channel channel() {
        return channel;
    }

    ChannelHandler handler() {
        return handler;
    }

    String encodedIdentifier() {
        return encodedIdentifier;
    }

    /** Completes when every stream started in {@code subscribed} has its starting line. */
    CompletableFuture<Void> streamsStarted() {
        return CompletableFuture.allOf(streams.values().stream()
                .map(stream -> stream.confirmed().toCompletableFuture()).toArray(CompletableFuture[]::new));
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
        if (streams.containsKey(cableChannel)) {
            return;
        }
        EncodedFrames frames = server.acquireFrames(identifier);
        LocalSubscription stream;
        try {
            stream = server.engine().subscribe(cableChannel,
                    new DirectDelivery(frames::frameFor, this::deliver, outbox.limits().maxPendingFrames()));
        } catch (RuntimeException e) {
            server.releaseFrames(identifier);
            throw e;
        }
        stream.closed().whenComplete((ignored, failure) -> server.releaseFrames(identifier));
        streams.put(cableChannel, stream);
    }

    @Override
    public void stopStream(String cableChannel) {
        LocalSubscription stream = streams.remove(cableChannel);
        if (stream != null) {
            stream.close();
        }
    }

    @Override
    public void reject() {
        rejected = true;
    }

    @Override
    public boolean isRejected() {
        return rejected;
    }

    @Override
    public void transmit(Object message) {
        deliver(Frames.message(encodedIdentifier, Json.encode(message)));
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

    void stopStreams() {
        streams.values().forEach(LocalSubscription::close);
        streams.clear();
    }

    /** The channel's {@code unsubscribed} callback, when its {@code subscribed} ran. */
    void unsubscribed() {
        if (handler == null) {
            return;
        }
        try {
            handler.unsubscribed(this);
        } catch (RuntimeException | Error e) {
            server.listenerFailure("Action Cable channel " + channel.name() + " failed in unsubscribed: " + e);
        }
    }
}
