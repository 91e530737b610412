package io.quarkiverse.cable.runtime.actioncable;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.quarkiverse.cable.ChannelHandler;
import io.quarkus.arc.Arc;

/** The {@code @CableChannel} beans found and checked at build time, by channel name, with their actions. */
public final class ChannelRegistry {

    /** A channel: its bean class and the names of its actions. */
    public record Channel(String name, Class<?> beanClass, Set<String> actions) {

        /** The invoker of {@code action} (generated at build time), or null when the channel has no such action. */
        CableActionInvoker action(String action) {
            return actions.contains(action) ? CableActionInvokers.get(name, action) : null;
        }

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
                Set<String> names = new HashSet<>();
                for (String entry : actions.getOrDefault(name, List.of())) {
                    names.add(entry.substring(0, entry.indexOf('=')));
                }
                found.put(name, new Channel(name, beanClass, Set.copyOf(names)));
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
