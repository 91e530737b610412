package io.quarkiverse.cable.runtime.frontend;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Failure;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

/**
 * Applies {@code quarkus.cable.origin} (its {@link OriginPolicy}) to WebSocket handshakes, before anything else runs for
 * them (identification included). A refused handshake is answered {@code 403 Forbidden} and counted and logged
 * (rate-limited) by the engine as an {@code origin} failure. The upgrade checks of both WebSocket front ends inject it.
 */
@Singleton
public class RequestOrigins {

    /** The answer to a refused handshake. */
    public static final int FORBIDDEN = 403;

    private final OriginPolicy policy;
    private final CableEngine engine;

    @Inject
    RequestOrigins(CableOriginConfig origin, @Internal CableEngine engine) {
        this.policy = new OriginPolicy(origin.check(), origin.allowSameOrigin(), origin.allowed().orElse(List.of()),
                origin.allowMissing());
        this.engine = engine;
    }

    /** Null when {@code request} may be upgraded, else why not (already counted and logged). */
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
