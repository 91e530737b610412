package io.quarkiverse.cable.deployment;

import io.quarkus.builder.item.MultiBuildItem;

/**
 * The invoker ArC generates for one {@code @CableAction} method, by class name: created during bean validation,
 * bound to the channel registry at static init ({@link ActionCableProcessor#bindActionInvokers}).
 */
public final class CableActionInvokerBuildItem extends MultiBuildItem {

    private final String channel;
    private final String action;
    private final String invokerClass;
    private final String parameterType;

    CableActionInvokerBuildItem(String channel, String action, String invokerClass, String parameterType) {
        this.channel = channel;
        this.action = action;
        this.invokerClass = invokerClass;
        this.parameterType = parameterType;
    }

    String channel() {
        return channel;
    }

    String action() {
        return action;
    }

    String invokerClass() {
        return invokerClass;
    }

    String parameterType() {
        return parameterType;
    }
}
