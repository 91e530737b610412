package io.quarkiverse.cable.runtime.sse;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/**
 * How to drop an SSE stream's connection: a reset of its HTTP response, which closes an HTTP/1.1 connection (and
 * resets an HTTP/2 stream) even when the client reads nothing, so the bytes queued for it are freed. Failing the
 * stream instead would make Quarkus REST end the response after what is already queued for a client that does not
 * read, and log an error for each.
 */
final class ConnectionCloser {

    private ConnectionCloser() {
    }

    /** The closer of the current request's connection, or null outside an HTTP request. */
    static Runnable forCurrentRequest() {
        try {
            ArcContainer container = Arc.container();
            if (container == null || !container.requestContext().isActive()) {
                return null;
            }
            try (InstanceHandle<CurrentVertxRequest> handle = container.instance(CurrentVertxRequest.class)) {
                if (!handle.isAvailable()) {
                    return null;
                }
                RoutingContext context = handle.get().getCurrent();
                if (context == null) {
                    return null;
                }
                HttpServerResponse response = context.response();
                return () -> {
                    if (!response.closed()) {
                        response.reset();
                    }
                };
            }
        } catch (RuntimeException e) {
            return null;
        }
    }
}
