package io.quarkiverse.cable.bench.loadgen;

import java.util.List;
import java.util.UUID;
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
        if (steps.pairedSender()) {
            return pairedIteration(vu);
        }
        return steps.connect(vu)
                .compose(connection -> steps.subscribe(connection, BROADCAST_CHANNEL))
                .compose(subscription -> AsyncLoop.times(vu.context(), parameters.num(),
                        i -> steps.ping(vu, subscription, "steady", i).compose(pong -> vu.sleep(randomPauseMs())))
                        .onSuccess(done -> subscription.client().close()));
    }

    /**
     * Two nodes: the user subscribes on node B, then opens a second connection on node A under the same identity
     * and pings through it; the pong is broadcast on A and awaited on B, so every round trip crosses nodes (with
     * {@code --paired} on one node, both connections go to that node: the same shape without the crossing). The A
     * connection subscribes too, as an action needs a subscription, but send-only: it streams nothing, so the pong is
     * delivered once, as in the single-node run, and node A does no delivery work the single-node run does not.
     */
    private Future<Void> pairedIteration(VirtualUser vu) {
        String id = UUID.randomUUID().toString();
        return steps.connectPair(vu, id, false)
                .compose(connection -> steps.subscribe(connection, BROADCAST_CHANNEL))
                .compose(receiver -> steps.connectPair(vu, id, true)
                        .compose(connection -> steps.subscribe(connection, SEND_ONLY_CHANNEL))
                        .compose(sender -> AsyncLoop.times(vu.context(), parameters.num(),
                                i -> steps.ping(vu, sender, receiver, "steady", i)
                                        .compose(pong -> vu.sleep(randomPauseMs())))
                                .onSuccess(done -> {
                                    sender.client().close();
                                    receiver.client().close();
                                })));
    }

    /** k6's {@code randomIntBetween(MIN_SLEEP_MS, MAX_SLEEP_MS)}, bounds included; the minimum if they cross. */
    private long randomPauseMs() {
        if (parameters.maxSleepMs() <= parameters.minSleepMs()) {
            return parameters.minSleepMs();
        }
        return ThreadLocalRandom.current().nextLong(parameters.minSleepMs(), parameters.maxSleepMs() + 1L);
    }
}
