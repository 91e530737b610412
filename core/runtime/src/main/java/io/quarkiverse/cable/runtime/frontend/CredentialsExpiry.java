package io.quarkiverse.cable.runtime.frontend;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/**
 * When a request's credentials expire. Every front end that outlives its request (an Action Cable connection, a
 * Server-Sent Events stream, a streaming WebSockets Next connection) ends there. Read from the security identity's
 * {@value #ATTRIBUTE} attribute (epoch seconds), which Quarkus OIDC sets from a token's {@code exp} and WebSockets Next
 * closes its own connections by. An identity made by SmallRye JWT has no such attribute (Quarkus 3.33); it carries
 * the verified token as its {@link TokenCredential}, so a JWT's own {@code exp} counts instead.
 */
public final class CredentialsExpiry {

    public static final String ATTRIBUTE = "quarkus.identity.expire-time";
    /**
     * The same expiry, under a name of the cable's: the Action Cable endpoint moves it here so that WebSockets Next
     * leaves the expiry to the cable, which tells the client why it is disconnected.
     */
    public static final String HANDED_OVER = "io.quarkiverse.cable.expire-time";

    private CredentialsExpiry() {
    }

    /** The expiry, or null when the identity has none (or there is no identity). */
    public static Instant of(SecurityIdentity identity) {
        if (identity == null) {
            return null;
        }
        if (identity.getAttribute(ATTRIBUTE) instanceof Number seconds) {
            return Instant.ofEpochSecond(seconds.longValue());
        }
        if (identity.getAttribute(HANDED_OVER) instanceof Number seconds) {
            return Instant.ofEpochSecond(seconds.longValue());
        }
        TokenCredential token = identity.getCredential(TokenCredential.class);
        return token == null ? null : jwtExpiry(token.getToken());
    }

    /**
     * The {@code exp} claim of a compact JWT, or null when {@code token} is not one or has none. The mechanism that
     * made the identity verified the token; only its payload is read here.
     */
    static Instant jwtExpiry(String token) {
        if (token == null) {
            return null;
        }
        int first = token.indexOf('.');
        int second = first < 0 ? -1 : token.indexOf('.', first + 1);
        if (second < 0) {
            return null;
        }
        try {
            byte[] payload = Base64.getUrlDecoder().decode(token.substring(first + 1, second));
            return new JsonObject(new String(payload, StandardCharsets.UTF_8)).getValue("exp") instanceof Number exp
                    ? Instant.ofEpochSecond(exp.longValue())
                    : null;
        } catch (IllegalArgumentException | DecodeException | ClassCastException e) {
            return null; // an opaque token, or not JSON: no expiry of its own
        }
    }
}
