package io.quarkiverse.cable.runtime.observability;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkiverse.cable.spi.Wakeup;
import io.quarkiverse.cable.spi.WakeupStats;

/** The wake-up's meters: whether the doorbell is connected, how often it rang, how often the probe ran and moved. */
final class WakeupMetrics {

    private WakeupMetrics() {
    }

    static void register(MeterRegistry registry, Wakeup wakeup) {
        WakeupStats stats = wakeup.stats();
        switch (wakeup.mode()) {
            case "notify" -> {
                Gauge.builder("cable.doorbell.connected", wakeup, w -> w.connected() ? 1 : 0)
                        .description("1 while the doorbell's LISTEN connection is up, else 0 (polling still delivers)")
                        .register(registry);
                FunctionCounter.builder("cable.doorbell.rings", stats, s -> s.ringsSent.sum())
                        .description("NOTIFYs sent by this node (at most one per committed batch)")
                        .tag("direction", "sent").register(registry);
                FunctionCounter.builder("cable.doorbell.rings", stats, s -> s.ringsHeard.sum())
                        .description("Notifications from other nodes that woke this node's poller")
                        .tag("direction", "heard").register(registry);
                Gauge.builder("cable.doorbell.silent", stats, s -> s.silent ? 1 : 0)
                        .description("1 while the LISTEN connection is up but hears nothing although polls find rows "
                                + "(a pooler in transaction mode on its route?), else 0")
                        .register(registry);
                FunctionCounter.builder("cable.doorbell.connects", stats, s -> s.listenerConnects.sum())
                        .description("Times the LISTEN connection was opened (1 + reconnects)").register(registry);
            }
            case "probe" -> {
                FunctionCounter.builder("cable.probes", stats, s -> s.probes.sum() - s.probesMoved.sum())
                        .description("Newest-id probes run").tag("result", "unchanged").register(registry);
                FunctionCounter.builder("cable.probes", stats, s -> s.probesMoved.sum())
                        .description("Newest-id probes run").tag("result", "moved").register(registry);
            }
            default -> {
                // No wake-up, nothing to show.
            }
        }
    }
}
