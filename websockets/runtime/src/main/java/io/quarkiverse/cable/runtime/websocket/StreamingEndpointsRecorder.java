package io.quarkiverse.cable.runtime.websocket;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import io.quarkiverse.cable.runtime.internals.SocketAccess;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.Recorder;

/**
 * Hands what the build found and made for the WebSocket front end to the runtime: the streaming endpoints, and the
 * socket accessor it generated.
 */
@Recorder
public class StreamingEndpointsRecorder {

    public Supplier<StreamingEndpoints> endpoints(Map<String, List<String>> templates,
            Map<String, List<String>> pathParameters, Set<String> ownPongs, boolean jwt) {
        return () -> new StreamingEndpoints(templates, pathParameters, ownPongs, jwt);
    }

    /** {@code generated}: an instance of {@link SocketAccess#GENERATED_CLASS}, made by recorded bytecode. */
    public Supplier<SocketAccess> socketAccess(RuntimeValue<SocketAccess> generated) {
        return generated::getValue;
    }
}
