package io.quarkiverse.cable.bench.loadgen;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.ClientWebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/**
 * One client of the reconnect storm: a subscriber of one {@code FanoutChannel} stream over the extended protocol
 * ({@code actioncable-v1-ext-json}) that keeps its stream position across connections, as {@code @anycable/core}
 * does, and checks every frame against what must come: after {@code confirm_subscription}, broadcasts whose offsets
 * continue its position one by one (and whose {@code sequence}, numbered by the publisher from 1 on a fresh stream,
 * equals the offset), in one epoch; when it asked for history, {@code confirm_history} exactly when the replay reached
 * the expected offset, never {@code reject_history}. Any other frame order is a violation, counted and described.
 * <p>
 * Not thread safe: create and call it on one Vert.x context, where its socket's callbacks run too.
 */
final class RecoveringClient {

    static final String SUBPROTOCOL = "actioncable-v1-ext-json";

    private final Vertx vertx;
    private final String stream;
    private final String identifier;
    private final ViolationLog violations;

    private ClientWebSocket socket;
    private String epoch;
    private long offset;
    /** Connection state: the welcome and the subscription's answers arrived. */
    private boolean welcomed;
    private boolean subscribed;
    private boolean historyPending;
    private long historyTarget;
    private long replayed;
    private Promise<Void> ready;
    private long awaitedOffset = Long.MAX_VALUE;
    private Promise<Void> caughtUp;
    /** The last subscribe command sent. */
    JsonObject sent;

    RecoveringClient(Vertx vertx, String stream, ViolationLog violations) {
        this.vertx = vertx;
        this.stream = stream;
        this.identifier = ActionCableClient.identifier("FanoutChannel", java.util.Map.of("stream", stream));
        this.violations = violations;
    }

    long offset() {
        return offset;
    }

    long replayed() {
        return replayed;
    }

    /**
     * Connects and subscribes: fresh (no history) the first time, else with a history request from its position,
     * expecting a replay up to {@code expectedOffset}. Completes on {@code confirm_subscription} (fresh) or on
     * {@code confirm_history} (recovering), fails when the connection ends first or {@code timeoutMs} passes.
     */
    Future<Void> connect(WebSocketClient client, WebSocketConnectOptions options, long expectedOffset, long timeoutMs) {
        Promise<Void> mine = newConnection(expectedOffset);
        long timer = vertx.setTimer(timeoutMs, id -> {
            if (mine.tryFail("not ready within " + timeoutMs + " ms (offset " + offset + " of " + expectedOffset + ")")) {
                close();
            }
        });
        ClientWebSocket opening = client.webSocket();
        socket = opening;
        opening.textMessageHandler(this::onText);
        opening.exceptionHandler(error -> mine.tryFail(error));
        opening.closeHandler(ignored -> mine.tryFail("connection closed"));
        opening.connect(options).onFailure(mine::tryFail);
        return mine.future().onComplete(ignored -> vertx.cancelTimer(timer));
    }

    /** Resets the per-connection state for a new connection; its promise completes when the client is ready. */
    Promise<Void> newConnection(long expectedOffset) {
        ready = Promise.promise();
        welcomed = false;
        subscribed = false;
        replayed = 0;
        historyPending = epoch != null;
        historyTarget = expectedOffset;
        return ready;
    }

    /** Completes once the client received offset {@code target} (at once when it already has). */
    Future<Void> awaitOffset(long target) {
        if (offset >= target) {
            return Future.succeededFuture();
        }
        awaitedOffset = target;
        caughtUp = Promise.promise();
        return caughtUp.future();
    }

    void close() {
        if (socket != null) {
            socket.close();
            socket = null;
        }
    }

    void onText(String text) {
        JsonObject frame;
        try {
            frame = new JsonObject(text);
        } catch (DecodeException | ClassCastException e) {
            violation("not JSON: " + text);
            return;
        }
        String type = frame.getString("type");
        if ("ping".equals(type)) {
            return;
        }
        if (!welcomed) {
            if ("welcome".equals(type) && frame.getValue("sid") instanceof String) {
                welcomed = true;
                JsonObject subscribe = new JsonObject().put("command", "subscribe").put("identifier", identifier);
                if (historyPending) {
                    subscribe.put("history", new JsonObject().put("streams", new JsonObject().put("fanout:" + stream,
                            new JsonObject().put("epoch", epoch).put("offset", offset))));
                }
                sent = subscribe;
                if (socket != null) {
                    socket.writeTextMessage(subscribe.encode());
                }
            } else {
                violation("expected a welcome with a sid, got " + text);
            }
            return;
        }
        if (!identifier.equals(frame.getString("identifier"))) {
            return;
        }
        if ("confirm_subscription".equals(type)) {
            if (subscribed) {
                violation("second confirm_subscription");
            }
            subscribed = true;
            if (!historyPending) {
                ready.tryComplete();
            }
        } else if ("confirm_history".equals(type)) {
            if (!subscribed || !historyPending) {
                violation("confirm_history out of place");
            } else if (offset != historyTarget) {
                violation("confirm_history at offset " + offset + ", expected " + historyTarget);
            }
            historyPending = false;
            ready.tryComplete();
        } else if ("reject_history".equals(type)) {
            violation("reject_history at offset " + offset);
            ready.tryFail("reject_history");
        } else if (frame.containsKey("message")) {
            onBroadcast(frame);
        } else {
            violation("unexpected frame " + text);
        }
    }

    private void onBroadcast(JsonObject frame) {
        if (!subscribed) {
            violation("broadcast before confirm_subscription");
        }
        Long position = frame.getLong("offset");
        String frameEpoch = frame.getString("epoch");
        Object message = frame.getValue("message");
        Integer sequence = message instanceof JsonObject body ? body.getInteger("sequence") : null;
        if (position == null || frameEpoch == null || sequence == null) {
            violation("broadcast without offset, epoch or sequence: " + frame.encode());
            return;
        }
        if (epoch != null && !epoch.equals(frameEpoch)) {
            violation("epoch changed from " + epoch + " to " + frameEpoch);
        }
        if (epoch != null && position != offset + 1) { // a fresh client takes its first broadcast as its start
            violation((position <= offset ? "duplicate or reordered" : "gap") + ": offset " + position + " after "
                    + offset);
        }
        if (sequence != position.longValue()) {
            violation("sequence " + sequence + " at offset " + position);
        }
        if (historyPending) {
            replayed++;
        }
        offset = epoch == null ? position : Math.max(offset, position);
        epoch = frameEpoch;
        if (caughtUp != null && offset >= awaitedOffset) {
            caughtUp.tryComplete();
            caughtUp = null;
            awaitedOffset = Long.MAX_VALUE;
        }
    }

    private void violation(String what) {
        violations.add(stream + ": " + what);
    }
}
