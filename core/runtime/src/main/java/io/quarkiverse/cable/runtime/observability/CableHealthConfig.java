package io.quarkiverse.cable.runtime.observability;

import java.time.Duration;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Readiness thresholds (see the Observability page): read by the readiness check alone, so they are its own.
 */
@ConfigMapping(prefix = "quarkus.cable.health")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface CableHealthConfig {
    /**
     * Readiness is down when the poller has not completed a cycle for this long (it retries with backoff of up
     * to 5 s while the database fails).
     */
    @WithDefault("10s")
    Duration pollTimeout();

    /**
     * Readiness is down when the writer has been writing a batch for this long, measured from when its oldest
     * broadcast was queued (a stuck or retrying writer), with the reason `writer stalled`; up again once the
     * batch is written. A SQL publisher that called `cable_broadcast` and keeps its transaction open holds the
     * writers' lock: every node's writer waits for it, so no broadcast of the cluster goes out meanwhile.
     */
    @WithDefault("10s")
    Duration writerTimeout();

    /**
     * Readiness is down when the last poll handed over a message written longer ago than this.
     */
    @WithDefault("30s")
    Duration maxPollLag();

    /**
     * Readiness is down when this node's poller is more than this many message ids behind the newest one.
     */
    @WithDefault("100000")
    long maxCursorLag();

    /**
     * Readiness is down when more than this many messages are older than `message-retention` (trimming is not
     * keeping up, or autotrim is off and nothing else deletes them). Expired rows are counted up to this number
     * plus one, so the count stays cheap.
     */
    @WithDefault("100000")
    long maxTrimDebt();

    /**
     * Whether the readiness check shows its figures (channel and subscriber counts, queue depth, cursor, lags,
     * trim debt, datasource name, the database's error) to whoever can call `/q/health/ready`. Off by default:
     * the check then reports only up or down and, when down, a short reason per failing condition (such as
     * `database unreachable`), since health endpoints are usually reachable without authentication. Turn it on
     * where the endpoint is protected or only reachable by operators; the same figures are metrics.
     */
    @WithDefault("false")
    boolean details();
}
