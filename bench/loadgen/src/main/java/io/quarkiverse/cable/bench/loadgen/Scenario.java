package io.quarkiverse.cable.bench.loadgen;

import java.util.List;
import java.util.Map;

/** One workload of the k6 script: the groups of virtual users it runs, and what each of their iterations does. */
interface Scenario {

    /** The ping-pong channel: each connection streams from its own {@code broadcast:<id>}. */
    String BROADCAST_CHANNEL = ActionCableClient.identifier("BroadcastChannel", Map.of());

    /**
     * The same channel subscribed to send only: it streams nothing, so the cross-node steady sender on node A gets no
     * copy of its pongs and each pong is delivered once, on node B.
     */
    String SEND_ONLY_CHANNEL = ActionCableClient.identifier("BroadcastChannel", Map.of("send_only", true));

    List<VuGroup> groups();

    static Scenario create(RunOptions options, CableSteps steps, Metrics metrics, EpochClock clock) {
        RunOptions.Parameters parameters = options.parameters();
        return switch (options.scenario()) {
            case STEADY -> new SteadyScenario(options.users(), parameters, steps);
            case STORM -> new StormScenario(options.users(), parameters, steps);
            case CHURN -> new ChurnScenario(parameters, steps);
            case FANOUT -> new FanoutScenario(options.users(), parameters, steps, metrics, clock);
        };
    }
}
