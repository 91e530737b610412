package io.quarkiverse.cable;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.quarkus.security.identity.SecurityIdentity;

/**
 * A stream asking to start, as {@link StreamAuthorization} sees it.
 *
 * @param channel the resolved channel name (for {@code @StreamFrom}, the template filled from the path parameters)
 * @param front which front end starts it
 * @param identity the request's identity: the authenticated one when Quarkus Security authenticated the request
 *        (WebSocket upgrade or SSE request), otherwise an anonymous identity ({@link SecurityIdentity#isAnonymous()});
 *        never null
 * @param path the request path (the WebSocket upgrade's or the SSE request's)
 * @param pathParams the path parameters of a WebSocket endpoint (its {@code @WebSocket} path's, by name); empty for
 *        SSE, whose endpoint resolves its own
 * @param headers the request headers, by lower-case name
 */
public record StreamRequest(String channel, Front front, SecurityIdentity identity, String path,
        Map<String, String> pathParams, Map<String, List<String>> headers) {

    /** The front end a stream starts on. */
    public enum Front {
        /** A {@link StreamFrom} endpoint, while its WebSocket upgrade is checked. */
        STREAM_FROM,
        /** {@link CableStreams#start}, on an open WebSocket connection. */
        CABLE_STREAMS,
        /** {@link CableEventStream}, a Server-Sent Events response. */
        SSE
    }

    /** The first value of header {@code name} (any case), or null. */
    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** The path parameter {@code name}, or null. */
    public String pathParam(String name) {
        return pathParams.get(name);
    }
}
