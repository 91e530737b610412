package io.quarkiverse.cable.runtime.actioncable;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.cable.ChannelHandler;
import io.quarkus.arc.Arc;

/** The {@code @CableChannel} beans found and checked at build time, by channel name, with their actions. */
final class ChannelRegistry {

    /**
     * A channel: its bean class, the names of its actions and their invokers (bound at static init, before any
     * connection is served).
     */
    public record Channel(String name, Class<?> beanClass, Set<String> actions,
            Map<String, CableActionInvoker> invokers) {

        /** The invoker of {@code action} (generated at build time), or null when the channel has no such action. */
        CableActionInvoker action(String action) {
            return invokers.get(action);
        }

        ChannelHandler handler() {
            return (ChannelHandler) Arc.container().instance(beanClass).get();
        }
    }

    private final Map<String, Channel> channels;
    private final boolean turboUsed;

    /**
     * @param classes bean class name by channel name
     * @param actions action names by channel name
     * @param turboUsed whether the application uses {@code TurboStreams}
     */
    ChannelRegistry(Map<String, String> classes, Map<String, Set<String>> actions, boolean turboUsed) {
        this.turboUsed = turboUsed;
        Map<String, Channel> found = new HashMap<>();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        classes.forEach((name, className) -> {
            try {
                Class<?> beanClass = Class.forName(className, false, loader);
                found.put(name, new Channel(name, beanClass, Set.copyOf(actions.getOrDefault(name, Set.of())),
                        new ConcurrentHashMap<>()));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("Cannot load cable channel " + name + " (" + className + ")", e);
            }
        });
        this.channels = Map.copyOf(found);
    }

    /** Binds the invoker of a declared action ({@link ActionCableRecorder#bind}). */
    void bind(String channel, String action, CableActionInvoker invoker) {
        Channel found = channels.get(channel);
        if (found == null || !found.actions().contains(action)) {
            throw new IllegalStateException("No action '" + action + "' declared on cable channel " + channel);
        }
        found.invokers().put(action, invoker);
    }

    public Channel channel(String name) {
        return channels.get(name);
    }

    public boolean turboUsed() {
        return turboUsed;
    }
}
