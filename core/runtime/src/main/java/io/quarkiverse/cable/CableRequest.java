package io.quarkiverse.cable;

import java.util.List;
import java.util.Map;

import io.quarkus.security.identity.SecurityIdentity;

/**
 * The WebSocket upgrade request of an Action Cable connection.
 *
 * @param path the request path
 * @param headers request headers, by lower-case name
 * @param cookies cookie values by name
 * @param query query parameters by name
 * @param identity the authenticated identity, or null when the request was not authenticated
 */
public record CableRequest(String path, Map<String, List<String>> headers, Map<String, String> cookies,
        Map<String, List<String>> query, SecurityIdentity identity) {

    /** The first value of header {@code name} (any case), or null. */
    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase(java.util.Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    public String cookie(String name) {
        return cookies.get(name);
    }

    /** The first value of query parameter {@code name}, or null. */
    public String queryParam(String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }
}
