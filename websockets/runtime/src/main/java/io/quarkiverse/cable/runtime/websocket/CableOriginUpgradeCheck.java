package io.quarkiverse.cable.runtime.websocket;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.runtime.frontend.RequestOrigins;
import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.smallrye.mutiny.Uni;

/**
 * The origin check on WebSockets Next endpoints that stream cable channels (those with {@code @StreamFrom} or that
 * inject {@code CableStreams}, found at build time): the public {@link HttpUpgradeCheck} runs before the endpoint
 * opens, so a refused page never gets a connection.
 */
@Singleton
public class CableOriginUpgradeCheck implements HttpUpgradeCheck {

    @Inject
    RequestOrigins origins;

    @Inject
    StreamingEndpoints endpoints;

    @Override
    public boolean appliesTo(String endpointId) {
        return endpoints.contains(endpointId);
    }

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        if (origins.refusal(context.httpRequest(), "endpoint " + context.endpointId()) != null) {
            return CheckResult.rejectUpgrade(RequestOrigins.FORBIDDEN);
        }
        return CheckResult.permitUpgrade();
    }
}
