package io.quarkiverse.cable.runtime.actioncable;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.inject.Instance;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import io.quarkiverse.cable.CableIdentification;
import io.quarkiverse.cable.CableRequest;
import io.quarkiverse.cable.runtime.frontend.CredentialsExpiry;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.websockets.next.HandshakeRequest;
import io.smallrye.mutiny.Uni;

/**
 * Who a connection is: the application's {@link CableIdentification}, or else the principal of an authenticated
 * request, or else nobody in particular. Runs on the connection's virtual thread.
 */
final class ConnectionIdentification {

    /**
     * What identification needs of the upgrade request: the request as WebSockets Next keeps it for the connection,
     * and the identity as WebSockets Next handed it to the upgrade check (already known when authentication is
     * proactive, deferred otherwise; null without Quarkus Security).
     */
    record Upgrade(HandshakeRequest request, Uni<SecurityIdentity> identity) {
    }

    private final Instance<CableIdentification> identification;
    private final Duration identityTimeout;

    ConnectionIdentification(Instance<CableIdentification> identification, Duration identityTimeout) {
        this.identification = identification;
        this.identityTimeout = identityTimeout;
    }

    /** Who a connection is: its identifiers, and when its credentials expire (null: never; see CredentialsExpiry). */
    record Identified(Map<String, String> identifiers, Instant expiresAt) {

        boolean expired() {
            return expiresAt != null && !expiresAt.isAfter(Instant.now());
        }
    }

    /**
     * The upgrade request's security identity, or null without Quarkus Security. Resolved on the connection's
     * executor, bounded: when authentication is not proactive, resolving it may take a round trip to an identity
     * provider, never awaited forever. Every callback of the connection then runs with it
     * ({@link io.quarkiverse.cable.runtime.core.CallbackContext}).
     */
    SecurityIdentity resolve(Upgrade upgrade) {
        return upgrade.identity() == null ? null : upgrade.identity().await().atMost(identityTimeout);
    }

    /** The connection's identity, or null when it is unauthorized; {@code identity} is {@link #resolve}'s. */
    Identified identify(Upgrade upgrade, SecurityIdentity identity) {
        CableRequest request = request(upgrade.request(), identity != null && !identity.isAnonymous() ? identity : null);
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

    /**
     * The request as {@link CableIdentification} sees it. The headers are WebSockets Next's own map (lower-case names,
     * kept for the connection anyway); cookies and query parameters are parsed only now, for the identification.
     */
    private static CableRequest request(HandshakeRequest handshake, SecurityIdentity identity) {
        Map<String, String> cookies = new HashMap<>();
        for (String header : handshake.headers(HttpHeaderNames.COOKIE.toString())) {
            for (Cookie cookie : ServerCookieDecoder.STRICT.decode(header)) {
                cookies.put(cookie.name(), cookie.value());
            }
        }
        String query = handshake.query();
        Map<String, List<String>> parameters = query == null || query.isEmpty() ? Map.of()
                : new QueryStringDecoder(query, false).parameters();
        return new CableRequest(handshake.path(), handshake.headers(), Map.copyOf(cookies), Map.copyOf(parameters),
                identity);
    }
}
