package io.quarkiverse.cable.bench.loadgen;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.ClientWebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/**
 * One Action Cable connection ({@code actioncable-v1-json}), behaving like the k6 {@code xk6-cable} client the Solid
 * Cable script uses: {@link #open} completes on the server's welcome, pings are ignored, {@link #subscribe} waits for
 * the confirmation or rejection, deliveries queue up per subscription until received.
 * <p>
 * Not thread safe and never blocking: create it, and call it, on the event loop of the virtual user that owns it, so
 * every callback of the connection runs on that same thread.
 */
final class ActionCableClient {

    static final String SUBPROTOCOL = "actioncable-v1-json";

    /** Why a connection, a subscription or a pending receive ended without the expected answer. */
    static final class CableException extends RuntimeException {
        CableException(String message) {
            super(message, null, false, false);
        }
    }

    private final Vertx vertx;
    private final ClientWebSocket socket;
    private final Map<String, CableSubscription> subscriptions = new HashMap<>();
    private final Promise<Void> welcome = Promise.promise();
    /** The upgrade completed; before that the socket can be neither written nor closed. */
    private boolean upgraded;
    private boolean closed;

    ActionCableClient(Vertx vertx, WebSocketClient client) {
        this.vertx = vertx;
        // Handlers are in place before the handshake, so a welcome sent right after it can never be missed.
        this.socket = client.webSocket();
        socket.textMessageHandler(this::onText);
        socket.exceptionHandler(error -> close());
        socket.closeHandler(ignored -> onClosed());
    }

    /**
     * The JSON identifier of a channel subscription. Keys are sorted, as xk6-cable's Go encoder writes them, giving
     * {@code {"channel":"FanoutChannel","stream":"s"}}; the string is then used verbatim, as the protocol requires.
     */
    static String identifier(String channel, Map<String, Object> params) {
        Map<String, Object> fields = new TreeMap<>(params);
        fields.put("channel", channel);
        return new JsonObject(fields).encode();
    }

    /** Upgrade and wait for {@code {"type":"welcome"}}, both within {@code timeoutMs}. */
    Future<Void> open(WebSocketConnectOptions options, long timeoutMs) {
        long timer = vertx.setTimer(timeoutMs, id -> {
            if (welcome.tryFail(new CableException("no welcome within " + timeoutMs + " ms"))) {
                close();
            }
        });
        socket.connect(options).onComplete(connected -> {
            if (connected.failed()) {
                welcome.tryFail(new CableException("connect failed: " + connected.cause().getMessage()));
                onClosed();
            } else {
                upgraded = true;
                if (closed) { // given up (timeout, interruption) while the upgrade was in flight
                    socket.close();
                }
            }
        });
        return welcome.future().onComplete(ignored -> vertx.cancelTimer(timer));
    }

    /**
     * Send the subscribe command; the future fails on {@code reject_subscription}, after {@code timeoutMs} without an
     * answer, or when the connection closes first.
     */
    Future<CableSubscription> subscribe(String identifier, long timeoutMs) {
        if (closed) {
            return Future.failedFuture(new CableException("connection closed"));
        }
        CableSubscription subscription = new CableSubscription(vertx, this, identifier);
        subscriptions.put(identifier, subscription);
        send(new JsonObject().put("command", "subscribe").put("identifier", identifier));
        return subscription.awaitConfirmation(timeoutMs);
    }

    /** A {@code message} command: the action's data is itself JSON text carrying {@code action}, set last. */
    void perform(String identifier, String action, JsonObject data) {
        send(new JsonObject().put("command", "message").put("identifier", identifier)
                .put("data", data.copy().put("action", action).encode()));
    }

    /** AnyCable's {@code whisper} command: the data as JSON, not a string of it. */
    void whisper(String identifier, JsonObject data) {
        send(new JsonObject().put("command", "whisper").put("identifier", identifier).put("data", data));
    }

    boolean isClosed() {
        return closed;
    }

    /** Like k6's {@code client.disconnect()}: returns at once; whatever waits on this connection ends now. */
    void close() {
        if (!closed) {
            onClosed();
            if (upgraded) {
                socket.close();
            }
        }
    }

    private void send(JsonObject command) {
        if (!closed && upgraded) {
            socket.writeTextMessage(command.encode());
        }
    }

    private void onText(String text) {
        upgraded = true; // a frame proves it, even if the connect callback has not run yet
        JsonObject message;
        try {
            message = new JsonObject(text);
        } catch (DecodeException | ClassCastException e) {
            return; // not an Action Cable frame; xk6-cable drops what it cannot decode as well
        }
        String type = message.getString("type");
        if ("ping".equals(type)) {
            return;
        }
        if (!welcome.future().isComplete()) {
            // The first frame other than a ping must be the welcome (a rejected connection gets a disconnect).
            if ("welcome".equals(type)) {
                welcome.complete();
            } else {
                welcome.fail(new CableException("expected a welcome, got " + text));
                close();
            }
            return;
        }
        if ("disconnect".equals(type)) {
            close();
            return;
        }
        Object identifier = message.getValue("identifier");
        CableSubscription subscription = identifier instanceof String id ? subscriptions.get(id) : null;
        if (subscription == null) {
            return;
        }
        if ("confirm_subscription".equals(type)) {
            subscription.confirmed();
        } else if ("reject_subscription".equals(type)) {
            subscription.rejected();
        } else if (message.containsKey("message")) {
            subscription.deliver(message.getValue("message"));
        }
    }

    private void onClosed() {
        if (closed) {
            return;
        }
        closed = true;
        welcome.tryFail(new CableException("connection closed before the welcome"));
        subscriptions.values().forEach(CableSubscription::connectionClosed);
    }
}
