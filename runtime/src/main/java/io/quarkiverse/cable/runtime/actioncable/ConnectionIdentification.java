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
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * Who a connection is: the application's {@link CableIdentification}, or else the principal of an authenticated
 * request, or else nobody in particular. Runs on the connection's virtual thread.
 */
final class ConnectionIdentification {

    /** What identification needs of the upgrade request, taken on the event loop before the request is gone. */
    record Upgrade(CableRequest request, Uni<SecurityIdentity> deferred) {
    }

    private final Instance<CableIdentification> identification;
    private final Duration identityTimeout;

    ConnectionIdentification(Instance<CableIdentification> identification, Duration identityTimeout) {
        this.identification = identification;
        this.identityTimeout = identityTimeout;
    }

    static Upgrade upgrade(RoutingContext context) {
        SecurityIdentity identity = context.user() instanceof QuarkusHttpUser user ? user.getSecurityIdentity() : null;
        return new Upgrade(request(context, identity), context.get(QuarkusHttpUser.DEFERRED_IDENTITY_KEY));
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
        if (request.identity() == null && upgrade.deferred() != null) {
            // Authentication is not proactive: the identity is resolved now, bounded, never awaited forever.
            SecurityIdentity identity = upgrade.deferred().await().atMost(identityTimeout);
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

    private static CableRequest request(RoutingContext context, SecurityIdentity identity) {
        HttpServerRequest request = context.request();
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
        return new CableRequest(request.path(), Map.copyOf(headers), Map.copyOf(cookies), Map.copyOf(query),
                identity != null && !identity.isAnonymous() ? identity : null);
    }
}
