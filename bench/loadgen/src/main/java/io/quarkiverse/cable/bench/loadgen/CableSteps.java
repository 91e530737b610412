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
    private final RunOptions.Parameters parameters;
    private final Metrics metrics;

    CableSteps(WebSocketClient client, WebSocketConnectOptions connectOptions, RunOptions.Parameters parameters,
            Metrics metrics) {
        this.client = client;
        this.connectOptions = connectOptions;
        this.parameters = parameters;
        this.metrics = metrics;
    }

    /** Connect and wait for the welcome; the duration is recorded whether or not it succeeds, as in k6. */
    Future<ActionCableClient> connect(VirtualUser vu) {
        long start = System.nanoTime();
        metrics.connectStarted(start);
        ActionCableClient connection = vu.newConnection(client);
        return connection.open(connectOptions, parameters.handshakeTimeoutS() * 1000L).transform(opened -> {
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
        String body = MessageBody.of(parameters.testId(), workload, vu.id(), vu.iteration(), index,
                parameters.payloadBytes());
        long start = System.nanoTime();
        subscription.perform("ping", new JsonObject().put("message", body));
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
