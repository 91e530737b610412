package io.quarkiverse.cable.runtime.core;

import java.time.Instant;

import io.quarkus.security.identity.SecurityIdentity;

/**
 * When a request's credentials expire. Every front end that outlives its request (an Action Cable connection, a
 * Server-Sent Events stream) ends there. Read from the security identity's {@value #ATTRIBUTE} attribute (epoch
 * seconds), which Quarkus OIDC sets from a token's {@code exp} and WebSockets Next closes its own connections by; an
 * identity made by SmallRye JWT has no such attribute (Quarkus 3.33), so, when the application has SmallRye JWT, its
 * principal's own {@code exp} counts instead.
 */
public final class CredentialsExpiry {

    public static final String ATTRIBUTE = "quarkus.identity.expire-time";

    /** Set at startup when the application has SmallRye JWT: only then is the optional MicroProfile JWT API there. */
    private static volatile boolean jwtPrincipals;

    private CredentialsExpiry() {
    }

    /** Called by the recorder when the application has SmallRye JWT (Capability.JWT). */
    public static void readJwtPrincipals() {
        jwtPrincipals = true;
    }

    /** The expiry, or null when the identity has none (or there is no identity). */
    public static Instant of(SecurityIdentity identity) {
        if (identity == null) {
            return null;
        }
        if (identity.getAttribute(ATTRIBUTE) instanceof Number seconds) {
            return Instant.ofEpochSecond(seconds.longValue());
        }
        return jwtPrincipals ? JwtExpiry.of(identity.getPrincipal()) : null;
    }
}
