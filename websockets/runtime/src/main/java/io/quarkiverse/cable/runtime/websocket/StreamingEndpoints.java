package io.quarkiverse.cable.runtime.websocket;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The WebSockets Next endpoints that stream cable channels ({@code @StreamFrom}, or a {@code CableStreams} injection
 * point), by endpoint id, found and checked at build time: their {@code @StreamFrom} templates and the names of their
 * path parameters. The origin check, the authorization check, the upgrade bookkeeping and the streams all ask here.
 */
public final class StreamingEndpoints {

    private final Map<String, List<String>> templates;
    private final Map<String, List<String>> pathParameters;
    private final boolean jwt;
    private final Set<String> ownPongs;

    /**
     * Both maps hold every streaming endpoint; an endpoint that only injects {@code CableStreams} has no template.
     * {@code jwt}: the application has SmallRye JWT.
     */
    StreamingEndpoints(Map<String, List<String>> templates, Map<String, List<String>> pathParameters,
            Set<String> ownPongs, boolean jwt) {
        this.templates = Map.copyOf(templates);
        this.pathParameters = Map.copyOf(pathParameters);
        this.ownPongs = Set.copyOf(ownPongs);
        this.jwt = jwt;
    }

    /**
     * Whether the cable watches the endpoint's connections for pongs ({@code Liveness}): not when the endpoint has an
     * {@code @OnPongMessage} of its own, which the cable's pong handler would replace.
     */
    public boolean watchesPongs(String endpointId) {
        return contains(endpointId) && !ownPongs.contains(endpointId);
    }

    /**
     * Whether each connection's identity is kept at the upgrade even without a {@code StreamAuthorization} bean: with
     * SmallRye JWT, whose token's {@code exp} closes the connection ({@link ExpiringConnections}).
     */
    public boolean keepsIdentities() {
        return jwt;
    }

    public boolean contains(String endpointId) {
        return pathParameters.containsKey(endpointId);
    }

    /** The endpoint's {@code @StreamFrom} templates; empty for an endpoint without the annotation. */
    public List<String> templates(String endpointId) {
        return templates.getOrDefault(endpointId, List.of());
    }

    public List<String> pathParameters(String endpointId) {
        return pathParameters.getOrDefault(endpointId, List.of());
    }
}
