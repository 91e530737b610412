package io.quarkiverse.cable.runtime.observability;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;

import io.quarkiverse.cable.spi.Worker;

/**
 * Liveness of the cable: its poller, writer and trimmer threads are running. They catch every failure and retry, so
 * a dead one means a bug, and restarting the process is the cure. Database outages do not make this check fail;
 * they make readiness fail.
 */
@Liveness
@ApplicationScoped
class CableLivenessCheck implements HealthCheck {

    @Inject
    CableObservability observability;

    @Override
    public HealthCheckResponse call() {
        // Never touches the database: a database outage must not get the process restarted.
        HealthCheckResponseBuilder response = HealthCheckResponse.named(CableReadinessCheck.NAME)
                .withData("adapter", observability.engine().adapter());
        boolean alive = true;
        for (Worker worker : observability.transport().status().workers()) {
            boolean running = worker.isAlive();
            response.withData(worker.role(), running ? "running" : "dead");
            alive &= running;
        }
        return response.status(alive).build();
    }
}
