package io.quarkiverse.cable.runtime.authz;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.quarkus.runtime.annotations.Recorder;

/** Hands the streaming endpoints found at build time to the runtime. */
@Recorder
public class AuthorizationRecorder {

    public Supplier<StreamingEndpoints> endpoints(Map<String, List<String>> pathParameters) {
        return () -> new StreamingEndpoints(pathParameters);
    }
}
