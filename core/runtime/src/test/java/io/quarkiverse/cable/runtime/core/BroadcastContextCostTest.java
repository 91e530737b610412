package io.quarkiverse.cable.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logmanager.MDC;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import io.quarkiverse.cable.runtime.memory.MemoryTransport;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * What carrying a broadcast's MDC costs per message (performance-work.adoc#broadcast-mdc): loops that print nanoseconds
 * per message, not a timed test (nothing is asserted of the figures). Runs only when asked:
 * {@code -Dtest=BroadcastContextCostTest -Dcable.bench.mdc=true}. The log manager's thread-local MDC, as on a thread
 * without a Vert.x context.
 */
@EnabledIfSystemProperty(named = "cable.bench.mdc", matches = "true")
class BroadcastContextCostTest {

    private static final int WARMUP = 500_000;
    private static final int ROUNDS = 5;
    private static final int CALLS = 1_000_000;
    private static final int MESSAGES = 200_000;

    @Test
    void printsTheCostPerMessage() throws Exception {
        AtomicLong sink = new AtomicLong();
        StringBuilder report = new StringBuilder();
        // The steps one message takes, as CableEngine, OrderedMailbox and CallbackContext take them: captured at the
        // broadcast, current while dispatched, taken by the mailbox, restored around the listener, cleared after it.
        Runnable steps = () -> {
            BroadcastContext captured = BroadcastContext.capture();
            BroadcastContext carried = captured == null ? BroadcastContext.dispatching()
                    : BroadcastContext.whileDispatching(captured, BroadcastContext::dispatching);
            Runnable exit = BroadcastContext.enter(carried);
            sink.incrementAndGet();
            exit.run();
        };
        MDC.clear();
        measure(report, "bare call (baseline)", sink::incrementAndGet);
        measure(report, "the steps, empty MDC", steps);
        withEntries();
        measure(report, "the steps, 3 MDC entries", steps);
        MDC.clear();
        measure(report, "the steps, empty MDC (again)", steps);
        endToEnd(report, "broadcast to a listener (memory), empty MDC", sink);
        withEntries();
        endToEnd(report, "broadcast to a listener (memory), 3 MDC entries", sink);
        MDC.clear();
        endToEnd(report, "broadcast to a listener (memory), empty MDC (again)", sink);
        System.out.println("Broadcast MDC cost (ns per message, best and median of " + ROUNDS + " rounds):\n" + report);
        assertThat(sink.get()).isPositive();
    }

    private static void withEntries() {
        MDC.put("traceId", "4bf92f3577b34da6a3ce929d0e0e4736");
        MDC.put("spanId", "00f067aa0ba902b7");
        MDC.put("request", "r-1234");
    }

    private static void measure(StringBuilder report, String what, Runnable call) {
        for (int i = 0; i < WARMUP; i++) {
            call.run();
        }
        double[] rounds = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < CALLS; i++) {
                call.run();
            }
            rounds[round] = (System.nanoTime() - start) / (double) CALLS;
        }
        line(report, what, rounds);
    }

    /** From the first broadcast to the last message's listener call, per message: one listener, one channel. */
    private static void endToEnd(StringBuilder report, String what, AtomicLong sink) throws Exception {
        CableRuntimeConfig config = new SmallRyeConfigBuilder().addDiscoveredConverters()
                .withMapping(CableRuntimeConfig.class)
                .withDefaultValue("quarkus.cable.subscriber-buffer", Integer.toString(MESSAGES))
                .build().getConfigMapping(CableRuntimeConfig.class);
        CableEngine engine = CableEngine.create(config, MemoryTransport.factory(config));
        engine.start();
        try {
            double[] rounds = new double[ROUNDS + 1];
            for (int round = 0; round <= ROUNDS; round++) {
                CountDownLatch all = new CountDownLatch(MESSAGES);
                var subscription = engine.subscribe("cost", message -> {
                    sink.incrementAndGet();
                    all.countDown();
                });
                long start = System.nanoTime();
                for (int i = 0; i < MESSAGES; i++) {
                    engine.broadcast("cost", "m");
                }
                assertThat(all.await(120, TimeUnit.SECONDS)).isTrue();
                rounds[round] = (System.nanoTime() - start) / (double) MESSAGES;
                subscription.close();
            }
            // The first round warms up.
            line(report, what, Arrays.copyOfRange(rounds, 1, rounds.length));
        } finally {
            engine.stop();
        }
    }

    private static void line(StringBuilder report, String what, double[] rounds) {
        Arrays.sort(rounds);
        report.append(String.format(Locale.ROOT, "  %-50s best %7.1f  median %7.1f%n", what, rounds[0],
                rounds[rounds.length / 2]));
    }
}
