package io.quarkiverse.cable.runtime.observability;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.runtime.CableEngine;
import io.quarkiverse.cable.runtime.CableStats;
import io.quarkiverse.cable.runtime.DatabaseTransport;
import io.quarkiverse.cable.runtime.config.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.poller.Poller;
import io.quarkiverse.cable.runtime.writer.BatchWriter;

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
    private final CableRuntimeConfig.Health thresholds;
    private final Duration retention;
    private Probe probe;

    @Inject
    public CableObservability(CableEngine engine, CableRuntimeConfig config) {
        this.engine = engine;
        this.thresholds = config.health();
        this.retention = config.messageRetention();
        if (engine.transport() instanceof DatabaseTransport database && database.poller() != null) {
            database.poller().trackHorizon();
        }
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

    public CableRuntimeConfig.Health thresholds() {
        return thresholds;
    }

    public CableStats stats() {
        return engine.stats();
    }

    public boolean isDatabase() {
        return engine.transport() instanceof DatabaseTransport;
    }

    /** The subscriber count per channel on this node. */
    public Map<String, Integer> channels() {
        return engine.subscribers().subscribersByChannel();
    }

    /** The database probe, reused while younger than {@link #PROBE_INTERVAL}; null with the memory adapter. */
    public synchronized Probe probe() {
        if (!(engine.transport() instanceof DatabaseTransport database) || database.store() == null) {
            return null;
        }
        long now = System.nanoTime();
        if (probe != null && now - probe.atNanos() < PROBE_INTERVAL.toNanos()) {
            return probe;
        }
        long cap = thresholds.maxTrimDebt() == Long.MAX_VALUE ? Long.MAX_VALUE : thresholds.maxTrimDebt() + 1;
        try (Connection connection = database.store().connection()) {
            long newest = database.store().newestId(connection);
            long debt = database.store().countExpired(connection, Instant.now().minus(retention), cap);
            probe = new Probe(System.nanoTime(), true, null, newest, debt, debt >= cap);
        } catch (SQLException | RuntimeException e) {
            probe = new Probe(System.nanoTime(), false, e.getClass().getSimpleName() + ": " + e.getMessage(),
                    probe == null ? -1 : probe.newestId(), probe == null ? -1 : probe.trimDebt(),
                    probe != null && probe.trimDebtCapped());
        }
        return probe;
    }

    /**
     * How many message ids this node's poller is behind the newest committed one. 0 without subscribed channels:
     * nothing needs reading then, and the next subscription starts at the newest id.
     */
    public long cursorLag(Probe probe, Poller poller) {
        if (probe == null || probe.newestId() < 0 || engine.subscribers().channelCount() == 0) {
            return 0;
        }
        return Math.max(0, probe.newestId() - poller.horizon());
    }

    public Snapshot snapshot() {
        CableStats stats = engine.stats();
        int channels = engine.subscribers().channelCount();
        int subscribers = engine.subscribers().subscriberCount();
        long broadcasts = stats.broadcasts.sum();
        long committed = stats.committed.sum();
        long deliveries = stats.deliveries.sum();
        if (!(engine.transport() instanceof DatabaseTransport database) || database.poller() == null) {
            return new Snapshot(engine.adapter(), null, null, null, null, null, null, null, null, null, null, null,
                    null, null, null, null, null, channels, subscribers, broadcasts, committed, deliveries);
        }
        Poller poller = database.poller();
        BatchWriter writer = database.writer();
        Probe probe = probe();
        long now = System.nanoTime();
        long oldest = writer.oldestQueuedAtNanos();
        return new Snapshot(engine.adapter(), database.datasourceName(), probe.reachable(), probe.error(),
                probe.newestId() < 0 ? null : probe.newestId(), poller.cursor(), cursorLag(probe, poller),
                probe.trimDebt() < 0 ? null : probe.trimDebt(), probe.trimDebtCapped(),
                // Without subscribed channels the poller runs no query, so the last poll's lag would never reset.
                channels == 0 ? 0L : stats.lastPollLagMillis,
                TimeUnit.NANOSECONDS.toMillis(now - poller.lastSuccessNanos()),
                TimeUnit.NANOSECONDS.toMicros(stats.lastPollDurationNanos), writer.queueDepth(),
                oldest == 0 ? 0 : Math.max(0, TimeUnit.NANOSECONDS.toMillis(now - oldest)), poller.isAlive(), writer.isAlive(),
                database.trimmer().isAlive(), channels, subscribers, broadcasts, committed, deliveries);
    }
}
