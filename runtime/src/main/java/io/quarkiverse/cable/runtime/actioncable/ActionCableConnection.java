package io.quarkiverse.cable.runtime.actioncable;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.TurboStreams;
import io.quarkiverse.cable.runtime.delivery.Delivery;
import io.quarkiverse.cable.runtime.subscribers.LocalSubscription;
import io.quarkiverse.cable.runtime.websocket.ConnectionOutbox;
import io.quarkiverse.cable.runtime.websocket.EncodedFrames;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * One {@code actioncable-v1-json} connection. Frames from the client are handled in order on the connection's
 * {@link SerialRunner} (so commands sent before the welcome wait for identification, as Rails buffers them); frames
 * to it go through its {@link ConnectionOutbox}. Bad input is logged (rate-limited) and answered as Rails does; it
 * never ends another subscription or connection.
 */
final class ActionCableConnection {

    final String id;
    final ConnectionOutbox outbox;
    private final ActionCableServer server;
    private final SerialRunner runner;
    private final Map<String, Sub> subscriptions = new ConcurrentHashMap<>();
    private volatile Map<String, String> identifiers;
    private volatile boolean closed;

    ActionCableConnection(String id, ConnectionOutbox outbox, ActionCableServer server) {
        this.id = id;
        this.outbox = outbox;
        this.server = server;
        this.runner = new SerialRunner(failure -> server.invalid("Action Cable connection " + id + " failed: " + failure));
    }

    Map<String, String> identifiers() {
        Map<String, String> current = identifiers;
        return current == null ? Map.of() : current;
    }

    /** Identification, then the welcome or the unauthorized disconnect; runs before any command. */
    void open(java.util.function.Supplier<Map<String, String>> identify) {
        runner.submit(() -> {
            Map<String, String> found;
            try {
                found = identify.get();
            } catch (RuntimeException e) {
                server.listenerFailure("Action Cable identification failed for connection " + id + ": " + e);
                found = null;
            }
            if (found == null) {
                disconnect("unauthorized", false);
                return;
            }
            identifiers = Map.copyOf(found);
            outbox.send(Frames.WELCOME);
        });
    }

    void received(String frame) {
        if (closed) {
            return;
        }
        runner.submit(() -> handle(frame));
    }

    void disconnect(String reason, boolean reconnect) {
        outbox.send(Frames.disconnect(reason, reconnect));
        outbox.close(1000, reason == null ? "" : reason);
    }

    /** The socket closed: streams stop at once, then the channels' unsubscribed callbacks run in order. */
    void closed() {
        closed = true;
        List<Sub> ended = new ArrayList<>(subscriptions.values());
        subscriptions.clear();
        ended.forEach(Sub::stopStreams);
        if (!ended.isEmpty()) {
            runner.submit(() -> ended.forEach(Sub::unsubscribed));
        }
    }

    private void handle(String frame) {
        if (closed || identifiers == null) {
            return;
        }
        JsonObject command;
        try {
            command = new JsonObject(frame);
        } catch (RuntimeException e) {
            server.invalid("Action Cable connection " + id + " sent a frame that is not a JSON object: " + clip(frame));
            return;
        }
        Object verb = command.getValue("command");
        Object identifier = command.getValue("identifier");
        if (!(verb instanceof String)) {
            server.invalid("Action Cable connection " + id + " sent a frame without a command: " + clip(frame));
            return;
        }
        if (!(identifier instanceof String id)) {
            if (!"pong".equals(verb)) {
                server.invalid("Action Cable connection " + this.id + " sent command '" + clip((String) verb)
                        + "' whose identifier is not a string");
            }
            return;
        }
        switch ((String) verb) {
            case "subscribe" -> subscribe(id);
            case "unsubscribe" -> unsubscribe(id);
            case "message" -> perform(id, command.getValue("data"));
            default -> server.invalid("Action Cable connection " + this.id + " sent unknown command '"
                    + clip((String) verb) + "'");
        }
    }

    private void subscribe(String identifier) {
        if (subscriptions.containsKey(identifier)) {
            return; // the client retries until confirmed; never confirm twice
        }
        String encoded = Json.encode(identifier);
        JsonObject params;
        try {
            params = new JsonObject(identifier);
        } catch (RuntimeException e) {
            server.invalid("Action Cable connection " + id + ": identifier is not a JSON object: " + clip(identifier));
            outbox.send(Frames.reject(encoded));
            return;
        }
        Object channelName = params.getValue("channel");
        Sub sub = new Sub(identifier, encoded, params);
        if (TurboStreams.CHANNEL.equals(channelName)) {
            String stream = server.verifyTurbo(params.getValue("signed_stream_name"));
            if (stream == null) {
                server.invalid("Action Cable connection " + id + ": rejected " + TurboStreams.CHANNEL
                        + " subscription with a missing, unsigned or tampered signed_stream_name");
                sub.reject();
            } else {
                sub.streamFrom(stream);
            }
        } else {
            ChannelRegistry.Channel channel = channelName instanceof String name ? server.registry().channel(name)
                    : null;
            if (channel == null) {
                server.invalid("Action Cable connection " + id + ": no channel " + clip(String.valueOf(channelName))
                        + " (subscription rejected)");
                sub.reject();
            } else {
                sub.channel = channel;
                try {
                    sub.handler = channel.handler();
                    sub.handler.subscribed(sub);
                } catch (RuntimeException | Error e) {
                    server.listenerFailure("Action Cable channel " + channel.name() + " failed in subscribed: " + e);
                    sub.reject();
                }
            }
        }
        if (sub.rejected) {
            sub.stopStreams();
            outbox.send(Frames.reject(encoded));
            return;
        }
        try {
            CompletableFuture.allOf(sub.streams.values().stream()
                    .map(stream -> stream.confirmed().toCompletableFuture()).toArray(CompletableFuture[]::new))
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            server.invalid("Action Cable connection " + id + ": streams of " + clip(identifier) + " did not start: " + e);
            sub.stopStreams();
            outbox.send(Frames.reject(encoded));
            return;
        }
        if (closed) {
            sub.stopStreams();
            return;
        }
        subscriptions.put(identifier, sub);
        sub.confirm();
    }

    private void unsubscribe(String identifier) {
        Sub sub = subscriptions.remove(identifier);
        if (sub == null) {
            server.invalid("Action Cable connection " + id + ": unsubscribe from " + clip(identifier)
                    + ", which is not subscribed");
            return;
        }
        sub.stopStreams();
        sub.unsubscribed();
    }

    private void perform(String identifier, Object data) {
        Sub sub = subscriptions.get(identifier);
        if (sub == null) {
            server.invalid("Action Cable connection " + id + ": message for " + clip(identifier)
                    + ", which is not subscribed");
            return;
        }
        JsonObject payload;
        try {
            payload = new JsonObject((String) data);
        } catch (RuntimeException e) {
            server.invalid("Action Cable connection " + id + ": message data is not a JSON object string");
            return;
        }
        Object actionValue = payload.getValue("action");
        String action = actionValue == null || "".equals(actionValue) ? "receive"
                : actionValue instanceof String text ? text : null;
        Method method = action == null || sub.channel == null ? null : sub.channel.actions().get(action);
        if (method == null) {
            server.invalid("Action Cable connection " + id + ": unable to process "
                    + (sub.channel == null ? TurboStreams.CHANNEL : sub.channel.name()) + "#"
                    + clip(String.valueOf(actionValue)));
            return;
        }
        try {
            method.invoke(sub.handler, sub, payload);
        } catch (InvocationTargetException e) {
            server.listenerFailure("Action Cable channel " + sub.channel.name() + "#" + action + " failed: "
                    + e.getCause());
        } catch (ReflectiveOperationException e) {
            server.listenerFailure("Action Cable channel " + sub.channel.name() + "#" + action + " failed: " + e);
        }
    }

    private static String clip(String text) {
        return text.length() > 100 ? text.substring(0, 100) + "..." : text;
    }

    /** One identifier on this connection. */
    private final class Sub implements ChannelSubscription {

        final String identifier;
        final String encoded;
        final JsonObject params;
        final Map<String, LocalSubscription> streams = new ConcurrentHashMap<>();
        ChannelRegistry.Channel channel;
        ChannelHandler handler;
        volatile boolean rejected;
        private final Object gate = new Object();
        private List<Object> held = new ArrayList<>();
        private volatile boolean confirmed;

        Sub(String identifier, String encoded, JsonObject params) {
            this.identifier = identifier;
            this.encoded = encoded;
            this.params = params;
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
            return ActionCableConnection.this.identifiers();
        }

        @Override
        public void streamFrom(String cableChannel) {
            if (streams.containsKey(cableChannel)) {
                return;
            }
            EncodedFrames frames = server.acquireFrames(identifier);
            LocalSubscription stream;
            try {
                stream = server.engine().subscribe(cableChannel, new Delivery() {
                    @Override
                    public boolean offer(CableMessage message) {
                        return deliver(frames.frameFor(message));
                    }

                    @Override
                    public void discard() {
                    }

                    @Override
                    public int limit() {
                        return outbox.limits().maxPendingFrames();
                    }
                });
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
            deliver(Frames.message(encoded, Json.encode(message)));
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
                outbox.send(Frames.confirm(encoded));
                held.forEach(outbox::send);
                held = null;
                confirmed = true;
            }
        }

        void stopStreams() {
            streams.values().forEach(LocalSubscription::close);
            streams.clear();
        }

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
}
