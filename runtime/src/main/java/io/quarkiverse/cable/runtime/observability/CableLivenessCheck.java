package io.quarkiverse.cable.runtime.observability;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;

import io.quarkiverse.cable.runtime.DatabaseTransport;

/**
 * Liveness of the cable: its poller, writer and trimmer threads are running. They catch every failure and retry, so
 * a dead one means a bug, and restarting the process is the cure. Database outages do not make this check fail;
 * they make readiness fail.
 */
@Liveness
@ApplicationScoped
public class CableLivenessCheck implements HealthCheck {

    @Inject
    CableObservability observability;

    @Override
    public HealthCheckResponse call() {
        // Never touches the database: a database outage must not get the process restarted.
        HealthCheckResponseBuilder response = HealthCheckResponse.named(CableReadinessCheck.NAME)
                .withData("adapter", observability.engine().adapter());
        if (!(observability.engine().transport() instanceof DatabaseTransport database) || database.poller() == null) {
            return response.up().build();
        }
        boolean poller = database.poller().isAlive();
        boolean writer = database.writer().isAlive();
        boolean trimmer = database.trimmer().isAlive();
        response.withData("poller", poller ? "running" : "dead");
        response.withData("writer", writer ? "running" : "dead");
        response.withData("trimmer", trimmer ? "running" : "dead");
        return response.status(poller && writer && trimmer).build();
    }
}
