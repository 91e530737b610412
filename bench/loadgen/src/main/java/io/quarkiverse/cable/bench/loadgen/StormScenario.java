package io.quarkiverse.cable.bench.loadgen;

import java.util.List;

import io.vertx.core.Future;

/**
 * "Thundering herd": {@code users} virtual users start at the same instant and each does one iteration of
 * {@code stormRounds} rounds of connect, subscribe, one ping, disconnect, short pause; bounded by
 * {@code stormMaxDurationS}. The measure is how long the herd takes to get through.
 */
final class StormScenario implements Scenario {

    private final int users;
    private final RunOptions.Parameters parameters;
    private final CableSteps steps;

    StormScenario(int users, RunOptions.Parameters parameters, CableSteps steps) {
        this.users = users;
        this.parameters = parameters;
        this.steps = steps;
    }

    @Override
    public List<VuGroup> groups() {
        return List.of(VuGroup.oneIterationEach(1, users, 0, parameters.stormMaxDurationS() * 1000L,
                parameters.gracefulStopS() * 1000L, this::iteration));
    }

    private Future<Void> iteration(VirtualUser vu) {
        return AsyncLoop.times(vu.context(), parameters.stormRounds(), round -> steps.connect(vu)
                .compose(connection -> steps.subscribe(connection, BROADCAST_CHANNEL))
                .compose(subscription -> steps.ping(vu, subscription, "storm", round)
                        .onSuccess(pong -> subscription.client().close()))
                .compose(closed -> vu.sleep(parameters.stormSleepMs())));
    }
}
