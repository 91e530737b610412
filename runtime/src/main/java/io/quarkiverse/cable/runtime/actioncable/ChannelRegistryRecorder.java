package io.quarkiverse.cable.runtime.actioncable;

import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import jakarta.enterprise.invoke.Invoker;

import io.quarkus.arc.runtime.BeanContainer;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.Recorder;

/** Hands the channels found at build time to the runtime, then the invokers ArC generated for their actions. */
@Recorder
public class ChannelRegistryRecorder {

    public Supplier<ChannelRegistry> registry(Map<String, String> classes, Map<String, Set<String>> actions,
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
