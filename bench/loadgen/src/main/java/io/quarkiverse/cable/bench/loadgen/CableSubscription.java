package io.quarkiverse.cable.bench.loadgen;

import java.util.ArrayDeque;

import io.quarkiverse.cable.bench.loadgen.ActionCableClient.CableException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * One channel subscription on an {@link ActionCableClient} (k6's {@code channel}): deliveries wait in an inbox until
 * {@link #receive} takes them, one at a time and in arrival order. Same threading rule as the client.
 */
final class CableSubscription {

    private final Vertx vertx;
    private final ActionCableClient client;
    private final String identifier;
    private final Promise<CableSubscription> confirmation = Promise.promise();
    /** Unbounded: only the fan-out publisher never reads its own, and it gets rate x time messages at most. */
    private final ArrayDeque<Object> inbox = new ArrayDeque<>();
    private Promise<Object> receiver;
    private long receiveTimer;

    CableSubscription(Vertx vertx, ActionCableClient client, String identifier) {
        this.vertx = vertx;
        this.client = client;
        this.identifier = identifier;
    }

    ActionCableClient client() {
        return client;
    }

    void perform(String action, JsonObject data) {
        client.perform(identifier, action, data);
    }

    void whisper(JsonObject data) {
        client.whisper(identifier, data);
    }

    /**
     * The next delivery's {@code message} value, or null when none arrives within {@code timeoutMs} or the connection
     * closes first (xk6-cable's {@code receive()} returns null on its timeout).
     */
    Future<Object> receive(long timeoutMs) {
        if (receiver != null) {
            throw new IllegalStateException("one receive at a time");
        }
        if (!inbox.isEmpty()) {
            return Future.succeededFuture(inbox.poll());
        }
        if (client.isClosed()) {
            return Future.succeededFuture(null);
        }
        Promise<Object> promise = Promise.promise();
        receiver = promise;
        receiveTimer = vertx.setTimer(timeoutMs, id -> {
            receiver = null;
            promise.complete(null);
        });
        return promise.future();
    }

    Future<CableSubscription> awaitConfirmation(long timeoutMs) {
        long timer = vertx.setTimer(timeoutMs,
                id -> confirmation.tryFail(new CableException("no confirmation within " + timeoutMs + " ms")));
        return confirmation.future().onComplete(ignored -> vertx.cancelTimer(timer));
    }

    void confirmed() {
        confirmation.tryComplete(this);
    }

    void rejected() {
        confirmation.tryFail(new CableException("subscription rejected"));
    }

    void deliver(Object message) {
        Promise<Object> waiting = takeReceiver();
        if (waiting != null) {
            waiting.complete(message);
        } else {
            inbox.add(message);
        }
    }

    void connectionClosed() {
        confirmation.tryFail(new CableException("connection closed"));
        Promise<Object> waiting = takeReceiver();
        if (waiting != null) {
            waiting.complete(null);
        }
    }

    private Promise<Object> takeReceiver() {
        Promise<Object> waiting = receiver;
        if (waiting != null) {
            receiver = null;
            vertx.cancelTimer(receiveTimer);
        }
        return waiting;
    }
}
