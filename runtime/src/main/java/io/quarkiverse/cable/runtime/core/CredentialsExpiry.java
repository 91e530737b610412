package io.quarkiverse.cable.runtime.core;

import java.time.Instant;

import io.quarkus.security.identity.SecurityIdentity;

/**
 * When a request's credentials expire: the security identity's {@value #ATTRIBUTE} attribute (epoch seconds), which
 * Quarkus OIDC and SmallRye JWT set from a token's {@code exp} and WebSockets Next closes its own connections by. Every
 * front end that outlives its request (an Action Cable connection, a Server-Sent Events stream) ends there.
 */
public final class CredentialsExpiry {

    public static final String ATTRIBUTE = "quarkus.identity.expire-time";

    private CredentialsExpiry() {
    }

    /** The expiry, or null when the identity has none (or there is no identity). */
    public static Instant of(SecurityIdentity identity) {
        return identity != null && identity.getAttribute(ATTRIBUTE) instanceof Number seconds
                ? Instant.ofEpochSecond(seconds.longValue())
                : null;
    }
}
