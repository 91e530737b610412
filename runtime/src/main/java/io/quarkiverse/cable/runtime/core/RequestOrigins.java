package io.quarkiverse.cable.runtime.core;

import io.vertx.core.http.HttpServerRequest;

/**
 * Applies {@code quarkus.cable.origin} to WebSocket handshakes, before anything else runs for them (identification
 * included). A refused handshake is answered {@code 403 Forbidden} and counted and logged (rate-limited) as an
 * {@code origin} failure. The upgrade checks of both WebSocket front ends inject it.
 */
public interface RequestOrigins {

    /** The answer to a refused handshake. */
    int FORBIDDEN = 403;

    /** Null when {@code request} may be upgraded, else why not (already counted and logged). */
    String refusal(HttpServerRequest request, String endpoint);
}
