package io.quarkiverse.cable.it;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Answers 404 for every {@link TestEndpoint} unless {@code cable-it.test-endpoints=true}: as if the endpoint did not
 * exist, so a production run of the demo gives nothing away about them.
 */
@Provider
@TestEndpoint
public class TestEndpointGate implements ContainerRequestFilter {

    @ConfigProperty(name = "cable-it.test-endpoints", defaultValue = "false")
    boolean enabled;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!enabled) {
            request.abortWith(Response.status(Response.Status.NOT_FOUND).build());
        }
    }
}
