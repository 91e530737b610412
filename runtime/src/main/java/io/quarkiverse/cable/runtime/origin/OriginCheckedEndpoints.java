package io.quarkiverse.cable.runtime.origin;

import java.util.Set;

/** The ids of the WebSockets Next endpoints that stream cable channels; found at build time. */
public final class OriginCheckedEndpoints {

    private final Set<String> ids;

    public OriginCheckedEndpoints(Set<String> ids) {
        this.ids = Set.copyOf(ids);
    }

    public boolean contains(String endpointId) {
        return ids.contains(endpointId);
    }
}
