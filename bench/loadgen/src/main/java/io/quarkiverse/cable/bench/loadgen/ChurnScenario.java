package io.quarkiverse.cable.bench.loadgen;

import java.util.List;

import io.vertx.core.Future;

/**
 * Connection churn: {@code churnUsers} virtual users for {@code churnTime} seconds, each looping connect, subscribe,
 * one ping, disconnect, with no pause: it measures how fast connections and subscriptions can be set up and torn
 * down.
 */
final class ChurnScenario implements Scenario {

    private final RunOptions.Parameters parameters;
    private final CableSteps steps;

    ChurnScenario(RunOptions.Parameters parameters, CableSteps steps) {
        this.parameters = parameters;
        this.steps = steps;
    }

    @Override
    public List<VuGroup> groups() {
        return List.of(VuGroup.constantVus(1, parameters.churnUsers(), parameters.churnTime() * 1000L,
                parameters.gracefulStopS() * 1000L, this::iteration));
    }

    private Future<Void> iteration(VirtualUser vu) {
        return steps.connect(vu)
                .compose(connection -> steps.subscribe(connection, BROADCAST_CHANNEL))
                .compose(subscription -> steps.ping(vu, subscription, "churn", 0)
                        .onSuccess(pong -> subscription.client().close()));
    }
}
