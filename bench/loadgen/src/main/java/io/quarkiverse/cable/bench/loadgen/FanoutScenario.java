package io.quarkiverse.cable.bench.loadgen;

import java.util.List;
import java.util.Map;

import io.quarkiverse.cable.bench.loadgen.ActionCableClient.CableException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * "Lecture": {@code users} subscribers of one FanoutChannel stream, and one publisher that starts after the warm-up
 * and sends {@code fanoutRate x fanoutTime} numbered messages at the rate, then a completion marker. Each subscriber
 * reads until the marker and accounts for what it got ({@link FanoutAccount}); the latency of a delivery is its
 * receive time minus the publisher's {@code sent_at}, both from the same {@link EpochClock}.
 */
final class FanoutScenario implements Scenario {

    private final int users;
    private final RunOptions.Parameters parameters;
    private final CableSteps steps;
    private final Metrics metrics;
    private final EpochClock clock;
    private final String identifier;

    FanoutScenario(int users, RunOptions.Parameters parameters, CableSteps steps, Metrics metrics, EpochClock clock) {
        this.users = users;
        this.parameters = parameters;
        this.steps = steps;
        this.metrics = metrics;
        this.clock = clock;
        this.identifier = ActionCableClient.identifier("FanoutChannel", Map.of("stream", parameters.fanoutStream()));
    }

    /** Messages the publisher sends, not counting the completion marker. */
    private int messageCount() {
        return parameters.fanoutRate() * parameters.fanoutTime();
    }

    @Override
    public List<VuGroup> groups() {
        long gracefulStopMs = parameters.gracefulStopS() * 1000L;
        long subscribersMaxMs = (parameters.fanoutWarmup() + parameters.fanoutTime() + parameters.fanoutDrain())
                * 1000L;
        long publisherMaxMs = (parameters.fanoutTime() + parameters.handshakeTimeoutS()) * 1000L;
        return List.of(
                VuGroup.oneIterationEach(1, users, 0, subscribersMaxMs, gracefulStopMs, this::subscriber),
                VuGroup.oneIterationEach(users + 1, 1, parameters.fanoutWarmup() * 1000L, publisherMaxMs,
                        gracefulStopMs, this::publisher));
    }

    private Future<Void> subscriber(VirtualUser vu) {
        FanoutAccount account = new FanoutAccount(metrics, clock);
        return steps.connect(vu)
                .compose(connection -> steps.subscribe(connection, identifier))
                .onSuccess(subscribed -> metrics.fanoutSubscribed.increment())
                .compose(subscription -> AsyncLoop.until(vu.context(),
                        () -> subscription.receive(parameters.receiveTimeoutMs()).compose(message -> {
                            if (message != null) {
                                return Future.succeededFuture(account.accept(message));
                            }
                            // k6 just waits again after a receive timeout; a closed connection would never deliver.
                            if (subscription.client().isClosed()) {
                                CableException failure = new CableException("connection closed before the marker");
                                metrics.failed(failure);
                                return Future.failedFuture(failure);
                            }
                            return Future.succeededFuture(false);
                        }))
                        .onSuccess(complete -> subscription.client().close()));
    }

    private Future<Void> publisher(VirtualUser vu) {
        int count = messageCount();
        long pauseMs = Math.round(1000.0 / parameters.fanoutRate());
        // Two nodes: the publisher is on node A, the subscribers on node B.
        return steps.connectPublisher(vu)
                .compose(connection -> steps.subscribe(connection, identifier))
                .compose(subscription -> AsyncLoop.times(vu.context(), count, sequence -> {
                    // k6 sends Date.now(), whole milliseconds; rounding keeps the latency error unbiased.
                    send(subscription, new JsonObject()
                            .put("sequence", sequence)
                            .put("sent_at", Math.round(clock.nowMillis()))
                            .put("message", MessageBody.of(parameters.testId(), "fanout", vu.id(), vu.iteration(),
                                    sequence, parameters.payloadBytes())));
                    metrics.published(System.nanoTime());
                    return sequence < count - 1 ? vu.sleep(pauseMs) : Future.succeededFuture();
                })
                        .compose(published -> vu.sleep(1000))
                        .compose(paused -> {
                            send(subscription, new JsonObject().put("complete", true).put("expected_messages", count));
                            return vu.sleep(1000);
                        })
                        .onSuccess(done -> subscription.client().close()));
    }

    /**
     * Through the channel's {@code publish} action (a broadcast, stored), or with {@code --fanout-via whisper} as a
     * whisper (not stored): the same fields reach the subscribers either way, so one account and one latency serve both.
     */
    private void send(CableSubscription subscription, JsonObject fields) {
        if (parameters.fanoutWhisper()) {
            subscription.whisper(fields);
        } else {
            subscription.perform("publish", fields);
        }
    }
}
