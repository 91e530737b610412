package io.quarkiverse.cable.deployment.websockets;

import java.util.List;

import io.quarkus.builder.item.MultiBuildItem;

/**
 * The invoker ArC generates for one channel method (a {@code @CableAction}, {@code @OnSubscribe} or
 * {@code @OnUnsubscribe} method), by class name: created during bean validation, bound to the channel registry at
 * static init ({@link ActionCableProcessor#bindChannelMethods}).
 *
 * @param callback {@code SUBSCRIBE} or {@code UNSUBSCRIBE} for a callback method, null for an action
 * @param action the action's name, null for a callback method
 * @param parameters where each argument comes from, as the runtime's {@code ChannelMethod.of} reads it
 */
public final class ChannelMethodInvokerBuildItem extends MultiBuildItem {

    private final String channel;
    private final String callback;
    private final String action;
    private final String invokerClass;
    private final List<String> parameters;

    ChannelMethodInvokerBuildItem(String channel, String callback, String action, String invokerClass,
            List<String> parameters) {
        this.channel = channel;
        this.callback = callback;
        this.action = action;
        this.invokerClass = invokerClass;
        this.parameters = List.copyOf(parameters);
    }

    String channel() {
        return channel;
    }

    String callback() {
        return callback;
    }

    String action() {
        return action;
    }

    String invokerClass() {
        return invokerClass;
    }

    List<String> parameters() {
        return parameters;
    }
}
