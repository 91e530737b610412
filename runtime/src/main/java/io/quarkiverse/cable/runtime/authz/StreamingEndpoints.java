package io.quarkiverse.cable.runtime.authz;

import java.util.List;
import java.util.Map;

/**
 * The WebSockets Next endpoints that stream cable channels ({@code @StreamFrom}, or a {@code CableStreams} injection
 * point), by endpoint id, with the names of their path parameters; found at build time.
 */
public final class StreamingEndpoints {

    private final Map<String, List<String>> pathParameters;

    public StreamingEndpoints(Map<String, List<String>> pathParameters) {
        this.pathParameters = Map.copyOf(pathParameters);
    }

    public boolean contains(String endpointId) {
        return pathParameters.containsKey(endpointId);
    }

    public List<String> pathParameters(String endpointId) {
        return pathParameters.getOrDefault(endpointId, List.of());
    }
}
