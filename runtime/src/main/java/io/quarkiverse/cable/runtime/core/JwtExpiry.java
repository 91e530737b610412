package io.quarkiverse.cable.runtime.core;

import java.security.Principal;
import java.time.Instant;

import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * The {@code exp} of a SmallRye JWT principal. A class of its own: it is loaded only when the application has SmallRye
 * JWT, since the MicroProfile JWT API it names is an optional dependency of the cable.
 */
final class JwtExpiry {

    private JwtExpiry() {
    }

    /** The token's expiry, or null when the principal is not a token or its token has no {@code exp}. */
    static Instant of(Principal principal) {
        return principal instanceof JsonWebToken token && token.getExpirationTime() > 0
                ? Instant.ofEpochSecond(token.getExpirationTime())
                : null;
    }
}
