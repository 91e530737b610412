package io.quarkiverse.cable.deployment;

import java.util.List;

import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.MethodInfo;

import io.quarkus.builder.item.MultiBuildItem;

/**
 * A {@code @CableChannel} class, read from the index and checked once ({@link ActionCableProcessor#scanChannels}):
 * the steps that declare the registry and generate the action invokers take it from here instead of scanning again.
 */
public final class CableChannelBuildItem extends MultiBuildItem {

    /** A {@code @CableAction} method and the action name clients send. */
    record Action(String name, MethodInfo method) {
    }

    private final String name;
    private final ClassInfo channel;
    private final List<Action> actions;

    CableChannelBuildItem(String name, ClassInfo channel, List<Action> actions) {
        this.name = name;
        this.channel = channel;
        this.actions = List.copyOf(actions);
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
}
