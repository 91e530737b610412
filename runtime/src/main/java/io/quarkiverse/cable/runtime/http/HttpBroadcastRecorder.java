package io.quarkiverse.cable.runtime.http;

import java.util.function.Function;

import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.Recorder;
import io.vertx.core.Handler;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The HTTP publish route, registered by the deployment at the path read at runtime. The route always exists; while
 * the endpoint is disabled it passes every request on (a 404 unless the application serves that path itself).
 */
@Recorder
public class HttpBroadcastRecorder {

    private final RuntimeValue<CableRuntimeConfig> config;

    public HttpBroadcastRecorder(RuntimeValue<CableRuntimeConfig> config) {
        this.config = config;
    }

    public Function<Router, Route> route() {
        return router -> router.route(config.getValue().httpBroadcast().path());
    }

    public Handler<RoutingContext> handler() {
        boolean enabled = config.getValue().httpBroadcast().enabled();
        return new Handler<>() {
            private volatile HttpBroadcasts broadcasts;

            @Override
            public void handle(RoutingContext context) {
                if (!enabled) {
                    context.next();
                    return;
                }
                HttpBroadcasts current = broadcasts;
                if (current == null) {
                    current = Arc.container().instance(HttpBroadcasts.class).get();
                    broadcasts = current;
                }
                current.handle(context);
            }
        };
    }
}
