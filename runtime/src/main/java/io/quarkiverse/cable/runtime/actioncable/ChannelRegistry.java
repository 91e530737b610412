package io.quarkiverse.cable.runtime.actioncable;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkus.arc.Arc;
import io.vertx.core.json.JsonObject;

/** The {@code @CableChannel} beans found and checked at build time, by channel name, with their actions. */
public final class ChannelRegistry {

    /** A channel: its bean class and its actions (action name to method). */
    public record Channel(String name, Class<?> beanClass, Map<String, Method> actions) {

        ChannelHandler handler() {
            return (ChannelHandler) Arc.container().instance(beanClass).get();
        }
    }

    private final Map<String, Channel> channels;
    private final boolean turboUsed;

    /**
     * @param classes bean class name by channel name
     * @param actions "actionName=methodName" entries by channel name
     * @param turboUsed whether the application uses {@code TurboStreams}
     */
    public ChannelRegistry(Map<String, String> classes, Map<String, List<String>> actions, boolean turboUsed) {
        this.turboUsed = turboUsed;
        Map<String, Channel> found = new HashMap<>();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        classes.forEach((name, className) -> {
            try {
                Class<?> beanClass = Class.forName(className, false, loader);
                Map<String, Method> methods = new HashMap<>();
                for (String entry : actions.getOrDefault(name, List.of())) {
                    int equals = entry.indexOf('=');
                    Method method = beanClass.getDeclaredMethod(entry.substring(equals + 1), ChannelSubscription.class,
                            JsonObject.class);
                    method.setAccessible(true);
                    methods.put(entry.substring(0, equals), method);
                }
                found.put(name, new Channel(name, beanClass, Map.copyOf(methods)));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("Cannot load cable channel " + name + " (" + className + ")", e);
            }
        });
        this.channels = Map.copyOf(found);
    }

    public Channel channel(String name) {
        return channels.get(name);
    }

    public boolean turboUsed() {
        return turboUsed;
    }
}
