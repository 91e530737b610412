package io.quarkiverse.cable.runtime.core;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.spi.Failure;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

/** The {@link RequestOrigins} of {@code quarkus.cable.origin}: its {@link OriginPolicy}, failures counted by the engine. */
@Singleton
class RequestOriginsBean implements RequestOrigins {

    private final OriginPolicy policy;
    private final CableEngine engine;

    @Inject
    RequestOriginsBean(CableRuntimeConfig config, @Internal CableEngine engine) {
        CableRuntimeConfig.Origin origin = config.origin();
        this.policy = new OriginPolicy(origin.check(), origin.allowSameOrigin(), origin.allowed().orElse(List.of()),
                origin.allowMissing());
        this.engine = engine;
    }

    @Override
    public String refusal(HttpServerRequest request, String endpoint) {
        String host = request.getHeader(HttpHeaders.HOST);
        if (host == null && request.authority() != null) {
            host = request.authority().toString();
        }
        String why = policy.refusal(request.getHeader(HttpHeaders.ORIGIN), request.scheme(), host);
        if (why != null) {
            engine.recordFailure(Failure.ORIGIN, "handshake", "Refused a WebSocket handshake on " + endpoint + ": " + why);
        }
        return why;
    }
}
