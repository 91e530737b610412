package io.quarkiverse.cable.runtime.actioncable;

import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.invoke.Invoker;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkus.arc.Arc;
import io.quarkus.arc.runtime.BeanContainer;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.Recorder;
import io.vertx.core.Handler;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The Action Cable front end's one recorder: the channels found at build time, the invokers ArC generated for their
 * actions, and the route at the configured mount path (registered through a route build item).
 */
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

    /**
     * The filter that turns an {@code anycable-token.<token>} sub-protocol into a bearer token. Filters see the whole
     * request path, and the endpoint's route is an application route, which Quarkus mounts under
     * {@code quarkus.http.root-path}: the filter matches both together.
     */
    public Handler<RoutingContext> tokenSubProtocol() {
        CableRuntimeConfig.ActionCable actionCable = config.getValue().actionCable();
        String rootPath = ConfigProvider.getConfig().getOptionalValue("quarkus.http.root-path", String.class)
                .orElse("/");
        return new TokenSubProtocol(actionCable.enabled() ? TokenSubProtocol.servedPath(rootPath,
                actionCable.mountPath()) : null);
    }

    public Supplier<?> registry(Map<String, String> classes, Map<String, Set<String>> actions,
            boolean turboUsed) {
        return () -> new ChannelRegistry(classes, actions, turboUsed);
    }

    /**
     * Binds one action's invoker. The invokers exist only once ArC has validated the beans, after the registry bean
     * was declared, so they reach the registry instance in a second step rather than through its supplier.
     */
    public void bind(BeanContainer container, String channel, String action,
            RuntimeValue<Invoker<Object, Object>> invoker, Class<?> parameterType) {
        container.beanInstance(ChannelRegistry.class).bind(channel, action,
                new CableActionInvoker(invoker.getValue(), parameterType));
    }
}
