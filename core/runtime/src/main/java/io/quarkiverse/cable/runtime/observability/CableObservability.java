package io.quarkiverse.cable.runtime.observability;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.StoreException;
import io.quarkiverse.cable.spi.Transport;
import io.quarkiverse.cable.spi.TransportStatus;

/**
 * The figures behind the health checks, the metrics and the Dev UI card. Figures kept in memory are read live; the
 * two that need the database (the newest id, the trim debt) come from a probe that runs at most once per
 * {@link #PROBE_INTERVAL}, whatever the number of health probes and scrapes, and is bounded in cost: one primary-key
 * lookup and a count that stops at {@code quarkus.cable.health.max-trim-debt + 1} rows.
 */
@Singleton
public class CableObservability {

    /** How long a database probe's result is reused. */
    public static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);

    private final CableEngine engine;
    private final CableHealthConfig thresholds;
    private final Duration retention;
    private Probe probe;

    @Inject
    public CableObservability(@Internal CableEngine engine, CableRuntimeConfig config, CableHealthConfig thresholds) {
        this.engine = engine;
        this.thresholds = thresholds;
        // Trim debt counts what trimming owes: messages older than what it keeps (the recovery window may extend it).
        this.retention = io.quarkiverse.cable.runtime.core.HistorySettings.retentionFor(config.messageRetention(),
                config.history().window());
        engine.transport().status().trackHorizon();
    }

    /** What the database said at one moment: reachable or not, the newest id, the expired rows (capped). */
    public record Probe(long atNanos, boolean reachable, String error, long newestId, long trimDebt,
            boolean trimDebtCapped) {
    }

    /** Everything an operator looks at, in one consistent read. Null fields do not apply to this adapter. */
    public record Snapshot(
            String adapter,
            String datasource,
            Boolean databaseReachable,
            String databaseError,
            Long newestId,
            Long cursor,
            Long cursorLag,
            Long trimDebt,
            Boolean trimDebtCapped,
            Long pollLagMillis,
            Long lastPollAgeMillis,
            Long lastPollDurationMicros,
            Integer writerQueueDepth,
            Long writerOldestAgeMillis,
            Boolean pollerAlive,
            Boolean writerAlive,
            Boolean trimmerAlive,
            int channels,
            int subscribers,
            long broadcasts,
            long committed,
            long deliveries) {
    }

    public CableEngine engine() {
        return engine;
    }

    public CableHealthConfig thresholds() {
        return thresholds;
    }

    public CableStats stats() {
        return engine.stats();
    }

    public Transport transport() {
        return engine.transport();
    }

    /** The subscriber count per channel on this node. */
    public Map<String, Integer> channels() {
        return engine.subscribersByChannel();
    }

    /** The database probe, reused while younger than {@link #PROBE_INTERVAL}; null with the memory adapter. */
    public synchronized Probe probe() {
        if (engine.transport().status().store().isEmpty()) {
            return null;
        }
        long now = System.nanoTime();
        if (probe != null && now - probe.atNanos() < PROBE_INTERVAL.toNanos()) {
            return probe;
        }
        long cap = thresholds.maxTrimDebt() == Long.MAX_VALUE ? Long.MAX_VALUE : thresholds.maxTrimDebt() + 1;
        try {
            Optional<TransportStatus.StoredCounts> counts = engine.transport().status().count(Instant.now().minus(retention),
                    cap);
            if (counts.isEmpty()) {
                return null; // not started yet
            }
            long debt = counts.get().expired();
            probe = new Probe(System.nanoTime(), true, null, counts.get().newestId(), debt, debt >= cap);
        } catch (StoreException | RuntimeException e) {
            String error = e instanceof StoreException failed ? failed.describe()
                    : e.getClass().getSimpleName() + ": " + e.getMessage();
            probe = new Probe(System.nanoTime(), false, error,
                    probe == null ? -1 : probe.newestId(), probe == null ? -1 : probe.trimDebt(),
                    probe != null && probe.trimDebtCapped());
        }
        return probe;
    }

    /**
     * How many message ids this node's poller is behind the newest committed one. 0 without subscribed channels:
     * nothing needs reading then, and the next subscription starts at the newest id.
     */
    public long cursorLag(Probe probe, TransportStatus.Progress progress) {
        if (probe == null || probe.newestId() < 0 || engine.channelCount() == 0) {
            return 0;
        }
        return Math.max(0, probe.newestId() - progress.horizon());
    }

    public Snapshot snapshot() {
        CableStats stats = engine.stats();
        // The figures shown count the application's subscriptions only (an idle node reports 0 and 0); whether the
        // poller reads anything at all still depends on every channel, the cable's own included.
        int channels = engine.applicationChannelCount();
        int subscribers = engine.applicationSubscriberCount();
        boolean polling = engine.channelCount() > 0;
        long broadcasts = stats.broadcasts();
        long committed = stats.committed();
        long deliveries = stats.deliveries();
        TransportStatus transport = engine.transport().status();
        Optional<TransportStatus.Progress> current = transport.progress();
        Probe probe = current.isEmpty() ? null : probe();
        if (probe == null) {
            return new Snapshot(engine.adapter(), null, null, null, null, null, null, null, null, null, null, null,
                    null, null, null, null, null, channels, subscribers, broadcasts, committed, deliveries);
        }
        TransportStatus.Progress progress = current.get();
        long now = System.nanoTime();
        long oldest = progress.writerOldestQueuedAtNanos();
        Map<String, Boolean> alive = new HashMap<>();
        transport.workers().forEach(worker -> alive.put(worker.role(), worker.isAlive()));
        return new Snapshot(engine.adapter(), transport.store().orElseThrow(), probe.reachable(), probe.error(),
                probe.newestId() < 0 ? null : probe.newestId(), progress.cursor(), cursorLag(probe, progress),
                probe.trimDebt() < 0 ? null : probe.trimDebt(), probe.trimDebtCapped(),
                // Without subscribed channels the poller runs no query, so the last poll's lag would never reset.
                polling ? stats.lastPollLagMillis() : 0L,
                TimeUnit.NANOSECONDS.toMillis(now - progress.lastPollNanos()),
                TimeUnit.NANOSECONDS.toMicros(stats.lastPollDurationNanos()), progress.writerQueueDepth(),
                oldest == 0 ? 0 : Math.max(0, TimeUnit.NANOSECONDS.toMillis(now - oldest)), alive.get("poller"),
                alive.get("writer"), alive.get("trimmer"), channels, subscribers, broadcasts, committed, deliveries);
    }
}
