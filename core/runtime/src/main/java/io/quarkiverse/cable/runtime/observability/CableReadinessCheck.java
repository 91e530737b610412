package io.quarkiverse.cable.runtime.observability;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import io.quarkiverse.cable.spi.Wakeup;

/**
 * Readiness of the cable: down when its database is unreachable, its poller has not completed a cycle within
 * {@code quarkus.cable.health.poll-timeout}, its writer is stuck on a batch, or poll lag, cursor lag or trim debt are
 * over their thresholds.
 * <p>
 * Health endpoints are usually open to anyone, so by default the response says only up or down and, when down, a
 * short reason per failing condition ({@code reason}). With {@code quarkus.cable.health.details=true} it also carries
 * the figures (counts, queue depth, cursor, lags) and the detailed problems, database error included.
 * <p>
 * Registered by the deployment only when {@code quarkus-smallrye-health} is present and
 * {@code quarkus.cable.health.enabled} is true.
 */
@Readiness
@ApplicationScoped
class CableReadinessCheck implements HealthCheck {

    public static final String NAME = "Quarkus Cable";

    @Inject
    CableObservability observability;

    @Override
    public HealthCheckResponse call() {
        CableObservability.Snapshot s = observability.snapshot();
        CableHealthConfig limits = observability.thresholds();
        boolean details = limits.details();
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME);
        if (details) {
            response.withData("adapter", s.adapter());
            response.withData("channels", s.channels());
            response.withData("subscribers", s.subscribers());
        }
        if (s.datasource() == null) {
            return response.up().build();
        }
        List<String> reasons = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        if (details) {
            response.withData("datasource", s.datasource());
            response.withData("database", s.databaseReachable() ? "reachable" : "unreachable");
        }
        if (!s.databaseReachable()) {
            reasons.add("database unreachable");
            problems.add("database unreachable: " + s.databaseError());
        }
        if (details) {
            // Informational only: polling stays correct without the doorbell, so it never makes the node unready.
            Wakeup wakeup = observability.transport().status().wakeup();
            response.withData("wakeup", wakeup.mode());
            if (wakeup.mode().equals("notify")) {
                response.withData("doorbell", !wakeup.connected() ? "disconnected"
                        : wakeup.stats().silent ? "silent" : "connected");
                if (wakeup.connected() && wakeup.stats().silent) {
                    response.withData("doorbell-warning", "connected but no notification heard while polls find "
                            + "rows: a pooler in transaction mode on its route? Set quarkus.cable.wakeup.jdbc-url to a "
                            + "direct URL");
                }
            }
            response.withData("last-poll-age-ms", s.lastPollAgeMillis());
        }
        if (s.lastPollAgeMillis() > limits.pollTimeout().toMillis()) {
            reasons.add("poller stalled");
            problems.add("no completed poll for " + s.lastPollAgeMillis() + " ms (poll-timeout "
                    + limits.pollTimeout().toMillis() + " ms)");
        }
        if (details) {
            response.withData("writer-queue-depth", s.writerQueueDepth());
            response.withData("writer-oldest-age-ms", s.writerOldestAgeMillis());
        }
        if (s.writerOldestAgeMillis() > limits.writerTimeout().toMillis()) {
            reasons.add("writer stalled");
            problems.add("writer busy with a batch queued " + s.writerOldestAgeMillis() + " ms ago (writer-timeout "
                    + limits.writerTimeout().toMillis() + " ms): the database is failing or slow, or a transaction"
                    + " holds the writers' lock (a SQL publisher that called cable_broadcast and has not committed)");
        }
        if (details) {
            response.withData("poll-lag-ms", s.pollLagMillis());
        }
        if (s.pollLagMillis() > limits.maxPollLag().toMillis()) {
            reasons.add("poll lag");
            problems.add("poll lag " + s.pollLagMillis() + " ms (max-poll-lag " + limits.maxPollLag().toMillis()
                    + " ms)");
        }
        if (details) {
            response.withData("cursor", s.cursor());
            if (s.newestId() != null) {
                response.withData("newest-id", s.newestId());
            }
            response.withData("cursor-lag", s.cursorLag());
        }
        if (s.cursorLag() > limits.maxCursorLag()) {
            reasons.add("cursor lag");
            problems.add("cursor lag " + s.cursorLag() + " (max-cursor-lag " + limits.maxCursorLag() + ")");
        }
        if (s.trimDebt() != null) {
            if (details) {
                response.withData("trim-debt", s.trimDebt());
            }
            if (s.trimDebt() > limits.maxTrimDebt()) {
                reasons.add("trim debt");
                problems.add("trim debt over " + limits.maxTrimDebt() + " expired messages (max-trim-debt)");
            }
        }
        if (problems.isEmpty()) {
            return response.up().build();
        }
        // The short reasons name the failing condition only: no figures, no database error text (host names,
        // schema names, driver messages).
        response.withData("reason", String.join("; ", reasons));
        if (details) {
            response.withData("problems", String.join("; ", problems));
        }
        return response.down().build();
    }
}
