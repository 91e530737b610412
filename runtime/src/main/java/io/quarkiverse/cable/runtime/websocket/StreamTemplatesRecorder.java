package io.quarkiverse.cable.runtime.websocket;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.Recorder;

/**
 * Hands what the build made for {@code @StreamFrom} streams to the runtime: the templates it found, and the socket
 * accessor it generated.
 */
@Recorder
public class StreamTemplatesRecorder {

    public Supplier<StreamTemplates> templates(Map<String, List<String>> byEndpoint) {
        return () -> new StreamTemplates(byEndpoint);
    }

    /** {@code generated}: an instance of {@link SocketAccess#GENERATED_CLASS}, made by recorded bytecode. */
    public Supplier<SocketAccess> socketAccess(RuntimeValue<SocketAccess> generated) {
        return generated::getValue;
    }
}
