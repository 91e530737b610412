package io.quarkiverse.cable.runtime.observability;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import io.quarkiverse.cable.runtime.config.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.wakeup.Wakeup;

/**
 * Readiness of the cable: down when its database is unreachable, its poller has not completed a cycle within
 * {@code quarkus.cable.health.poll-timeout}, its writer is stuck on a batch, or poll lag, cursor lag or trim debt are
 * over their thresholds. The response data carries the figures and, when down, the reasons.
 * <p>
 * Registered by the deployment only when {@code quarkus-smallrye-health} is present and
 * {@code quarkus.cable.health.enabled} is true.
 */
@Readiness
@ApplicationScoped
public class CableReadinessCheck implements HealthCheck {

    public static final String NAME = "Quarkus Cable";

    @Inject
    CableObservability observability;

    @Override
    public HealthCheckResponse call() {
        CableObservability.Snapshot s = observability.snapshot();
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME);
        response.withData("adapter", s.adapter());
        response.withData("channels", s.channels());
        response.withData("subscribers", s.subscribers());
        if (s.datasource() == null) {
            return response.up().build();
        }
        CableRuntimeConfig.Health limits = observability.thresholds();
        List<String> problems = new ArrayList<>();
        response.withData("datasource", s.datasource());
        response.withData("database", s.databaseReachable() ? "reachable" : "unreachable");
        if (!s.databaseReachable()) {
            problems.add("database unreachable: " + s.databaseError());
        }
        // Informational only: polling stays correct without the doorbell, so it never makes the node unready.
        Wakeup wakeup = observability.transport().wakeup();
        response.withData("wakeup", wakeup.mode());
        if (wakeup.mode().equals("notify")) {
            response.withData("doorbell", !wakeup.connected() ? "disconnected"
                    : wakeup.stats().silent ? "silent" : "connected");
            if (wakeup.connected() && wakeup.stats().silent) {
                response.withData("doorbell-warning", "connected but no notification heard while polls find rows: a "
                        + "pooler in transaction mode on its route? Set quarkus.cable.wakeup.jdbc-url to a direct URL");
            }
        }
        response.withData("last-poll-age-ms", s.lastPollAgeMillis());
        if (s.lastPollAgeMillis() > limits.pollTimeout().toMillis()) {
            problems.add("no completed poll for " + s.lastPollAgeMillis() + " ms (poll-timeout "
                    + limits.pollTimeout().toMillis() + " ms)");
        }
        response.withData("writer-queue-depth", s.writerQueueDepth());
        response.withData("writer-oldest-age-ms", s.writerOldestAgeMillis());
        if (s.writerOldestAgeMillis() > limits.writerTimeout().toMillis()) {
            problems.add("writer busy with a batch queued " + s.writerOldestAgeMillis() + " ms ago (writer-timeout "
                    + limits.writerTimeout().toMillis() + " ms)");
        }
        response.withData("poll-lag-ms", s.pollLagMillis());
        if (s.pollLagMillis() > limits.maxPollLag().toMillis()) {
            problems.add("poll lag " + s.pollLagMillis() + " ms (max-poll-lag " + limits.maxPollLag().toMillis()
                    + " ms)");
        }
        response.withData("cursor", s.cursor());
        if (s.newestId() != null) {
            response.withData("newest-id", s.newestId());
        }
        response.withData("cursor-lag", s.cursorLag());
        if (s.cursorLag() > limits.maxCursorLag()) {
            problems.add("cursor lag " + s.cursorLag() + " (max-cursor-lag " + limits.maxCursorLag() + ")");
        }
        if (s.trimDebt() != null) {
            response.withData("trim-debt", s.trimDebt());
            if (s.trimDebt() > limits.maxTrimDebt()) {
                problems.add("trim debt over " + limits.maxTrimDebt() + " expired messages (max-trim-debt)");
            }
        }
        if (problems.isEmpty()) {
            return response.up().build();
        }
        response.withData("problems", String.join("; ", problems));
        return response.down().build();
    }
}
