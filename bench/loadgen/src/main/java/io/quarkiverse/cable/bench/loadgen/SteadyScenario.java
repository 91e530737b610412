package io.quarkiverse.cable.bench.loadgen;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.vertx.core.Future;

/**
 * "Constant load": {@code users} virtual users for {@code time} seconds, each looping connect, subscribe to
 * BroadcastChannel, {@code num} pings each followed by a random pause, disconnect. One ping in flight per connection,
 * so each connection sends about one ping per 0.9 s with the default pauses.
 */
final class SteadyScenario implements Scenario {

    private final int users;
    private final RunOptions.Parameters parameters;
    private final CableSteps steps;

    SteadyScenario(int users, RunOptions.Parameters parameters, CableSteps steps) {
        this.users = users;
        this.parameters = parameters;
        this.steps = steps;
    }

    @Override
    public List<VuGroup> groups() {
        return List.of(VuGroup.constantVus(1, users, parameters.time() * 1000L, parameters.gracefulStopS() * 1000L,
                this::iteration));
    }

    private Future<Void> iteration(VirtualUser vu) {
        return steps.connect(vu)
                .compose(connection -> steps.subscribe(connection, BROADCAST_CHANNEL))
                .compose(subscription -> AsyncLoop.times(vu.context(), parameters.num(),
                        i -> steps.ping(vu, subscription, "steady", i).compose(pong -> vu.sleep(randomPauseMs())))
                        .onSuccess(done -> subscription.client().close()));
    }

    /** k6's {@code randomIntBetween(MIN_SLEEP_MS, MAX_SLEEP_MS)}, bounds included; the minimum if they cross. */
    private long randomPauseMs() {
        if (parameters.maxSleepMs() <= parameters.minSleepMs()) {
            return parameters.minSleepMs();
        }
        return ThreadLocalRandom.current().nextLong(parameters.minSleepMs(), parameters.maxSleepMs() + 1L);
    }
}
