package io.quarkiverse.cable.bench.loadgen;

import io.quarkiverse.cable.bench.loadgen.ActionCableClient.CableException;
import io.vertx.core.Future;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;

/**
 * The k6 script's helpers {@code connectClient}, {@code subscribeTo}, {@code receive} and the ping round trip, with
 * their measurements and checks. A failed check fails the returned future, which ends the iteration as k6's
 * {@code fail()} does.
 */
final class CableSteps {

    private final WebSocketClient client;
    private final WebSocketConnectOptions connectOptions;
    private final WebSocketConnectOptions publishOptions;
    private final RunOptions.Parameters parameters;
    private final Metrics metrics;

    CableSteps(WebSocketClient client, WebSocketConnectOptions connectOptions, RunOptions.Parameters parameters,
            Metrics metrics) {
        this(client, connectOptions, connectOptions, parameters, metrics);
    }

    /** {@code publishOptions}: where producers connect (node A of a two-node run; else the same as connectOptions). */
    CableSteps(WebSocketClient client, WebSocketConnectOptions connectOptions, WebSocketConnectOptions publishOptions,
            RunOptions.Parameters parameters, Metrics metrics) {
        this.client = client;
        this.connectOptions = connectOptions;
        this.publishOptions = publishOptions;
        this.parameters = parameters;
        this.metrics = metrics;
    }

    /** Connect and wait for the welcome; the duration is recorded whether or not it succeeds, as in k6. */
    Future<ActionCableClient> connect(VirtualUser vu) {
        return open(vu.newConnection(client), connectOptions);
    }

    /** Connect where producers connect: node A in a two-node run. */
    Future<ActionCableClient> connectPublisher(VirtualUser vu) {
        return open(vu.newConnection(client), publishOptions);
    }

    /** Whether each steady user pings through a second connection: across nodes, or paired on one node. */
    boolean pairedSender() {
        return publishOptions != connectOptions;
    }

    /**
     * Cross-node steady: a subscriber on node B and a sender on node A that share an identity ({@code ?id=}, which
     * the bench server's identification honours), so the sender's pings answer on the stream B subscribes.
     */
    Future<ActionCableClient> connectPair(VirtualUser vu, String id, boolean sender) {
        WebSocketConnectOptions base = sender ? publishOptions : connectOptions;
        WebSocketConnectOptions options = new WebSocketConnectOptions(base.toJson())
                .setURI(base.getURI() + (base.getURI().contains("?") ? "&" : "?") + "id=" + id);
        return open(sender ? vu.newSecondConnection(client) : vu.newConnection(client), options);
    }

    private Future<ActionCableClient> open(ActionCableClient connection, WebSocketConnectOptions options) {
        long start = System.nanoTime();
        metrics.connectStarted(start);
        return connection.open(options, parameters.handshakeTimeoutS() * 1000L).transform(opened -> {
            metrics.connectDuration.add(millisSince(start));
            if (opened.failed()) {
                metrics.connectionFailures.increment();
                metrics.failed(opened.cause());
                return Future.failedFuture(opened.cause());
            }
            return Future.succeededFuture(connection);
        });
    }

    /** Subscribe and wait for the confirmation (xk6-cable waits the receive timeout for it). */
    Future<CableSubscription> subscribe(ActionCableClient connection, String identifier) {
        long start = System.nanoTime();
        return connection.subscribe(identifier, parameters.receiveTimeoutMs()).onComplete(confirmed -> {
            metrics.subscribeDuration.add(millisSince(start));
            if (confirmed.failed()) {
                metrics.subscriptionFailures.increment();
                metrics.failed(confirmed.cause());
            }
        });
    }

    /**
     * One {@code ping} action and its pong: the body is checked to come back as {@code "pong " + body}. A timeout
     * counts as a receive failure and, like any wrong answer, as an invalid message and a failed round trip.
     */
    Future<Void> ping(VirtualUser vu, CableSubscription subscription, String workload, int index) {
        return ping(vu, subscription, subscription, workload, index);
    }

    /** The ping goes out through {@code sender} and its pong is awaited on {@code subscription}. */
    Future<Void> ping(VirtualUser vu, CableSubscription sender, CableSubscription subscription, String workload,
            int index) {
        String body = MessageBody.of(parameters.testId(), workload, vu.id(), vu.iteration(), index,
                parameters.payloadBytes());
        long start = System.nanoTime();
        sender.perform("ping", new JsonObject().put("message", body));
        metrics.messagesSent.increment();
        return subscription.receive(parameters.receiveTimeoutMs()).compose(message -> {
            metrics.actionRtt.add(millisSince(start));
            if (message == null) {
                metrics.receiveFailures.increment();
            }
            boolean ok = message instanceof JsonObject pong && ("pong " + body).equals(pong.getValue("message"));
            if (!ok) {
                metrics.roundTripsFailed.increment();
                metrics.invalidMessages.increment();
                subscription.client().close();
                CableException failure = new CableException(message == null
                        ? "no pong within " + parameters.receiveTimeoutMs() + " ms (or the connection closed)"
                        : "expected pong " + body + ", got " + message);
                metrics.failed(failure);
                return Future.failedFuture(failure);
            }
            metrics.roundTripsOk.increment();
            metrics.messagesReceived.increment();
            return Future.succeededFuture();
        });
    }

    static double millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e6;
    }
}
