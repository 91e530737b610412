package io.quarkiverse.cable.it.authz;

import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Tests only: a bearer "token" in the query, {@code ?token=<user>.<expiry in epoch seconds>}, or in
 * {@code Authorization: Bearer <user>.<expiry>} (where the cable puts one offered as an {@code anycable-token.<token>}
 * sub-protocol, and WebSockets Next one offered as {@code quarkus-http-upgrade#Authorization#Bearer ...}), unsigned,
 * standing in for a JWT (what SmallRye JWT and OIDC do with one: a principal and the {@code quarkus.identity.expire-time}
 * attribute from its {@code exp}). An expired token still authenticates, so the cable can answer
 * {@code token_expired}, as AnyCable does, instead of a 401 that no client can tell apart. Requests without
 * a token are left to the other mechanisms.
 */
@ApplicationScoped
public class TestTokenAuthentication implements HttpAuthenticationMechanism {

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        String token = context.request().getParam("token");
        String authorization = context.request().getHeader("Authorization");
        if (token == null && authorization != null && authorization.startsWith("Bearer ")) {
            token = authorization.substring("Bearer ".length()); // also as a sub-protocol (anycable-token.<token>)
        }
        int dot = token == null ? -1 : token.lastIndexOf('.');
        if (dot <= 0) {
            return Uni.createFrom().nullItem();
        }
        long expiresAt;
        try {
            expiresAt = Long.parseLong(token.substring(dot + 1));
        } catch (NumberFormatException e) {
            return Uni.createFrom().nullItem();
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(token.substring(0, dot)))
                .addAttribute("quarkus.identity.expire-time", expiresAt)
                .build());
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().nullItem();
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of();
    }
}
