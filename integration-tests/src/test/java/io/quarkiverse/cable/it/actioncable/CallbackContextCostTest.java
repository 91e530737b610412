package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import io.quarkiverse.cable.it.context.RequestProbe;
import io.quarkiverse.cable.runtime.core.CallbackContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.test.junit.QuarkusTest;

/**
 * What a callback's request context costs (performance-work.adoc#callback-context): a loop that prints nanoseconds per
 * call, not a timed test (it asserts nothing of the figures). Runs only when asked:
 * {@code -Dtest=CallbackContextCostTest -Dcable.bench.callbacks=true}. On a virtual thread, as the cable's callbacks
 * run, where no request context is active (a {@code @QuarkusTest} method has one of its own).
 */
@QuarkusTest
@EnabledIfSystemProperty(named = "cable.bench.callbacks", matches = "true")
public class CallbackContextCostTest {

    private static final int WARMUP = 500_000;
    private static final int ROUNDS = 5;
    private static final int CALLS = 1_000_000;

    @Inject
    RequestProbe probe;

    @Test
    void printsTheCostOfAContextPerCallback() throws Exception {
        SecurityIdentity alice = QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal("alice"))
                .addRole("member").build();
        SecurityIdentity anonymous = QuarkusSecurityIdentity.builder().setAnonymous(true).build();
        AtomicLong sink = new AtomicLong();
        Runnable noop = sink::incrementAndGet;
        Runnable readsABean = () -> sink.addAndGet(probe.number());
        StringBuilder report = new StringBuilder();
        Thread thread = Thread.ofVirtual().start(() -> {
            measure(report, "bare call (baseline)", () -> noop.run());
            measure(report, "request context, no identity", () -> CallbackContext.run(null, noop));
            measure(report, "request context + identity associated", () -> CallbackContext.run(alice, noop));
            measure(report, "request context, anonymous identity (not associated)",
                    () -> CallbackContext.run(anonymous, noop));
            measure(report, "request context + a @RequestScoped bean created", () -> CallbackContext.run(null,
                    readsABean));
        });
        thread.join();
        System.out.println("Callback context cost (ns per call, best and median of " + ROUNDS + " rounds of " + CALLS
                + "):\n" + report);
        assertThat(sink.get()).isPositive();
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
        java.util.Arrays.sort(rounds);
        report.append(String.format(Locale.ROOT, "  %-50s best %7.1f  median %7.1f%n", what, rounds[0],
                rounds[ROUNDS / 2]));
    }
}
