package io.quarkiverse.cable.runtime.actioncable;

import java.util.function.Function;

import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.Recorder;
import io.vertx.core.Handler;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/** The Action Cable route, registered by the deployment through a route build item, at the configured mount path. */
@Recorder
public class ActionCableRecorder {

    private final RuntimeValue<CableRuntimeConfig> config;

    public ActionCableRecorder(RuntimeValue<CableRuntimeConfig> config) {
        this.config = config;
    }

    public Function<Router, Route> route() {
        return router -> router.route(config.getValue().actionCable().mountPath());
    }

    public Handler<RoutingContext> handler() {
        return new Handler<>() {
            private volatile ActionCableServer server;

            @Override
            public void handle(RoutingContext context) {
                ActionCableServer current = server;
                if (current == null) {
                    current = Arc.container().instance(ActionCableServer.class).get();
                    server = current;
                }
                current.handle(context);
            }
        };
    }
}
