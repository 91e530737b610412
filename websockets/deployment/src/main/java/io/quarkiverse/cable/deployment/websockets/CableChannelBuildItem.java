package io.quarkiverse.cable.deployment.websockets;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.MethodInfo;

import io.quarkus.builder.item.MultiBuildItem;

/**
 * A {@code @CableChannel} class, read from the index and checked once ({@link ActionCableProcessor#scanChannels}):
 * the steps that declare the registry and generate the method invokers take it from here instead of scanning again.
 */
public final class CableChannelBuildItem extends MultiBuildItem {

    /**
     * A channel method and its arguments: where each comes from, as the runtime's {@code ChannelMethod.of} reads it,
     * and the application classes Jackson builds for them (registered for reflection for a native image).
     */
    record Method(MethodInfo method, List<String> parameters, Set<String> decodedClasses) {
    }

    /** A {@code @CableAction} method and the action name clients send. */
    record Action(String name, Method method) {
    }

    private final String name;
    private final ClassInfo channel;
    private final List<Action> actions;
    private final Map<String, Method> callbacks;

    /**
     * @param callbacks the {@code @OnSubscribe} and {@code @OnUnsubscribe} methods, by {@code SUBSCRIBE}, {@code UNSUBSCRIBE}
     */
    CableChannelBuildItem(String name, ClassInfo channel, List<Action> actions, Map<String, Method> callbacks) {
        this.name = name;
        this.channel = channel;
        this.actions = List.copyOf(actions);
        this.callbacks = Map.copyOf(callbacks);
    }

    String name() {
        return name;
    }

    ClassInfo channel() {
        return channel;
    }

    List<Action> actions() {
        return actions;
    }

    Map<String, Method> callbacks() {
        return callbacks;
    }
}
