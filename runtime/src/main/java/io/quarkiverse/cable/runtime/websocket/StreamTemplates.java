package io.quarkiverse.cable.runtime.websocket;

import java.util.List;
import java.util.Map;

/** The {@code @StreamFrom} templates of each endpoint, by endpoint id; found and checked at build time. */
public final class StreamTemplates {

    private final Map<String, List<String>> byEndpoint;

    public StreamTemplates(Map<String, List<String>> byEndpoint) {
        this.byEndpoint = Map.copyOf(byEndpoint);
    }

    public List<String> forEndpoint(String endpointId) {
        return byEndpoint.getOrDefault(endpointId, List.of());
    }
}
