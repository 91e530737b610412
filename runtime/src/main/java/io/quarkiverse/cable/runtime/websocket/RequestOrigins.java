package io.quarkiverse.cable.runtime.websocket;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * Applies the {@link OriginPolicy} of {@code quarkus.cable.origin} to WebSocket handshakes, before anything else runs
 * for them (identification included). A refused handshake is answered {@code 403 Forbidden} and counted and logged
 * (rate-limited) as an {@code origin} failure.
 */
@Singleton
public class RequestOrigins {

    static final int FORBIDDEN = 403;

    private final OriginPolicy policy;
    private final CableEngine engine;

    @Inject
    public RequestOrigins(CableRuntimeConfig config, @Internal CableEngine engine) {
        CableRuntimeConfig.Origin origin = config.origin();
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
            engine.recordFailure(CableStats.Failure.ORIGIN, "Refused a WebSocket handshake on " + endpoint + ": " + why);
        }
        return why;
    }

    /**
     * For the Action Cable route: answers a refused handshake with 403 and returns true; returns false when it may
     * proceed.
     */
    public boolean refused(RoutingContext context) {
        if (refusal(context.request(), "the Action Cable endpoint " + context.request().path()) == null) {
            return false;
        }
        context.response().setStatusCode(FORBIDDEN).end("Forbidden: this page's origin may not open the cable");
        return true;
    }
}
