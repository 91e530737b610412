package io.quarkiverse.cable.runtime.actioncable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.enterprise.inject.Instance;

import io.quarkiverse.cable.CableIdentification;
import io.quarkiverse.cable.CableRequest;
import io.quarkiverse.cable.runtime.core.CredentialsExpiry;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpServerRequest;

/**
 * Who a connection is: the application's {@link CableIdentification}, or else the principal of an authenticated
 * request, or else nobody in particular. Runs on the connection's virtual thread.
 */
final class ConnectionIdentification {

    /**
     * What identification needs of the upgrade request, taken during the upgrade before the request is gone: the
     * request without its identity, and the identity as WebSockets Next hands it to upgrade checks (already known when
     * authentication is proactive, deferred otherwise; null without Quarkus Security).
     */
    record Upgrade(CableRequest request, Uni<SecurityIdentity> identity) {
    }

    private final Instance<CableIdentification> identification;
    private final Duration identityTimeout;

    ConnectionIdentification(Instance<CableIdentification> identification, Duration identityTimeout) {
        this.identification = identification;
        this.identityTimeout = identityTimeout;
    }

    static Upgrade upgrade(HttpServerRequest request, Uni<SecurityIdentity> identity) {
        return new Upgrade(request(request), identity);
    }

    /** Who a connection is: its identifiers, and when its credentials expire (null: never; see CredentialsExpiry). */
    record Identified(Map<String, String> identifiers, Instant expiresAt) {

        boolean expired() {
            return expiresAt != null && !expiresAt.isAfter(Instant.now());
        }
    }

    /** The connection's identity, or null when it is unauthorized. */
    Identified identify(Upgrade upgrade) {
        CableRequest request = upgrade.request();
        if (upgrade.identity() != null) {
            // Resolved here, on the connection's executor, bounded: when authentication is not proactive, resolving
            // it may take a round trip to an identity provider, never awaited forever.
            SecurityIdentity identity = upgrade.identity().await().atMost(identityTimeout);
            request = new CableRequest(request.path(), request.headers(), request.cookies(), request.query(),
                    identity != null && !identity.isAnonymous() ? identity : null);
        }
        Instant expiresAt = CredentialsExpiry.of(request.identity());
        if (identification.isResolvable()) {
            Map<String, String> identifiers = identification.get().identify(request);
            return identifiers == null ? null : new Identified(identifiers, expiresAt);
        }
        if (request.identity() != null && !request.identity().isAnonymous()) {
            return new Identified(Map.of("user", request.identity().getPrincipal().getName()), expiresAt);
        }
        return new Identified(Map.of(), null);
    }

    private static CableRequest request(HttpServerRequest request) {
        Map<String, List<String>> headers = new HashMap<>();
        request.headers().forEach(entry -> headers
                .computeIfAbsent(entry.getKey().toLowerCase(Locale.ROOT), key -> new ArrayList<>())
                .add(entry.getValue()));
        Map<String, String> cookies = new HashMap<>();
        for (Cookie cookie : request.cookies()) {
            cookies.put(cookie.getName(), cookie.getValue());
        }
        Map<String, List<String>> query = new HashMap<>();
        request.params().forEach(entry -> query.computeIfAbsent(entry.getKey(), key -> new ArrayList<>())
                .add(entry.getValue()));
        return new CableRequest(request.path(), Map.copyOf(headers), Map.copyOf(cookies), Map.copyOf(query), null);
    }
}
