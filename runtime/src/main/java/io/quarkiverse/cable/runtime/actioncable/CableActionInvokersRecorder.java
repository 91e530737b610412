package io.quarkiverse.cable.runtime.actioncable;

import jakarta.enterprise.invoke.Invoker;

import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.Recorder;

/** Registers the {@code @CableAction} invokers ArC generated at build time. */
@Recorder
public class CableActionInvokersRecorder {

    public void register(String channel, String action, RuntimeValue<Invoker<Object, Object>> invoker,
            Class<?> parameterType) {
        CableActionInvokers.register(channel, action, new CableActionInvoker(invoker.getValue(), parameterType));
    }
}
