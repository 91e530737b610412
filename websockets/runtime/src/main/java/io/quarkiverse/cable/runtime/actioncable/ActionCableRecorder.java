package io.quarkiverse.cable.runtime.actioncable;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import jakarta.enterprise.invoke.Invoker;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkus.arc.runtime.BeanContainer;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.Recorder;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

/**
 * The Action Cable front end's one recorder: the channels found at build time, the invokers ArC generated for their
 * actions, and the filter that reads bearer tokens from the endpoint's sub-protocols. (The endpoint itself is a
 * generated WebSockets Next endpoint: see {@link ActionCableEndpoint}.)
 */
@Recorder
public class ActionCableRecorder {

    private final RuntimeValue<ActionCableConfig> config;

    public ActionCableRecorder(RuntimeValue<ActionCableConfig> config) {
        this.config = config;
    }

    /**
     * The filter that turns an {@code anycable-token.<token>} sub-protocol into a bearer token. Filters see the whole
     * request path, and WebSockets Next mounts the endpoint under {@code quarkus.http.root-path}: the filter matches
     * both together.
     */
    public Handler<RoutingContext> tokenSubProtocol(String mountPath) {
        return new TokenSubProtocol(servedPath(mountPath));
    }

    /** The filter that leaves the expiry of a connection's credentials to the cable ({@link ExpiryHandover}). */
    public Handler<RoutingContext> expiryHandover(String mountPath) {
        return new ExpiryHandover(servedPath(mountPath));
    }

    /** The endpoint's path as requests name it, root path included; null when the endpoint is off. */
    private String servedPath(String mountPath) {
        String rootPath = ConfigProvider.getConfig().getOptionalValue("quarkus.http.root-path", String.class)
                .orElse("/");
        return config.getValue().enabled() ? TokenSubProtocol.servedPath(rootPath, mountPath) : null;
    }

    public Supplier<?> registry(Map<String, String> classes, Map<String, Set<String>> actions,
            boolean turboUsed) {
        return () -> new ChannelRegistry(classes, actions, turboUsed);
    }

    /**
     * Binds one channel method's invoker: an action ({@code action} its name), or with {@code action} null the
     * {@code callback} ({@code SUBSCRIBE} or {@code UNSUBSCRIBE}). The invokers exist only once ArC has validated the
     * beans, after the registry bean was declared, so they reach the registry instance in a second step rather than
     * through its supplier. {@code parameters} describes the arguments ({@link ChannelMethod#of}).
     */
    public void bind(BeanContainer container, String channel, String callback, String action,
            RuntimeValue<Invoker<Object, Object>> invoker, List<String> parameters) {
        ChannelMethod method = ChannelMethod.of(invoker.getValue(), parameters,
                Thread.currentThread().getContextClassLoader());
        ChannelRegistry registry = container.beanInstance(ChannelRegistry.class);
        if (action != null) {
            registry.bind(channel, action, method);
        } else {
            registry.bind(channel, ChannelRegistry.Callback.valueOf(callback), method);
        }
    }
}
