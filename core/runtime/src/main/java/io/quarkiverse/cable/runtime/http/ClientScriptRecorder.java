package io.quarkiverse.cable.runtime.http;

import java.util.function.Function;

import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.Recorder;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The browser client's route, registered by the deployment at the path read at runtime ({@code quarkus.cable.client}).
 * While the client is disabled the route passes every request on, as the HTTP publish route does: a 404 unless the
 * application serves that path itself.
 */
@Recorder
public class ClientScriptRecorder {

    /** Where the client module's build (client/pom.xml) puts the module, in the quarkus-cable-client jar. */
    public static final String MODULE = "io/quarkiverse/cable/client/cable.js";

    private final RuntimeValue<CableClientConfig> config;

    public ClientScriptRecorder(RuntimeValue<CableClientConfig> config) {
        this.config = config;
    }

    public Function<Router, Route> route() {
        String path = config.getValue().path();
        if (!path.startsWith("/")) {
            // Vert.x would refuse it too, without naming the property.
            throw new IllegalArgumentException(
                    "Invalid configuration: quarkus.cable.client.path must start with /, was " + path);
        }
        return router -> router.route(path).method(HttpMethod.GET).method(HttpMethod.HEAD);
    }

    public Handler<RoutingContext> handler() {
        if (!config.getValue().enabled()) {
            return RoutingContext::next;
        }
        return ClientScript.load(Thread.currentThread().getContextClassLoader());
    }
}
