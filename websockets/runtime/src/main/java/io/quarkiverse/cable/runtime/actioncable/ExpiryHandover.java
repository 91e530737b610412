package io.quarkiverse.cable.runtime.actioncable;

import java.security.Permission;
import java.security.Principal;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import io.quarkiverse.cable.runtime.frontend.CredentialsExpiry;
import io.quarkus.security.credential.Credential;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

/**
 * Leaves an Action Cable connection's credential expiry to the cable. WebSockets Next closes a connection whose
 * identity carries the {@value CredentialsExpiry#ATTRIBUTE} attribute itself when it passes (1008), which would cut
 * off AnyCable's {@code {"type":"disconnect","reason":"token_expired"}} that clients refresh their token on; and it
 * fails to set up a connection whose identity has already expired (Quarkus 3.33: a timer with a negative delay), where
 * Action Cable answers {@code token_expired} at once. A filter on the mount path, after authentication: the request's
 * identity becomes a view whose expiry is under {@value CredentialsExpiry#HANDED_OVER} instead, which
 * {@link CredentialsExpiry} reads and WebSockets Next does not. Principal, roles, credentials, other attributes and
 * permission checks are the identity's own. A deferred identity (authentication not proactive) needs nothing: nothing
 * asks WebSockets Next to resolve it for this endpoint.
 */
final class ExpiryHandover implements Handler<RoutingContext> {

    private final String servedPath;

    /** {@code servedPath}: the endpoint's path as requests name it ({@link TokenSubProtocol#servedPath}), or null. */
    ExpiryHandover(String servedPath) {
        this.servedPath = servedPath;
    }

    @Override
    public void handle(RoutingContext context) {
        if (context.user() instanceof QuarkusHttpUser user
                && user.getSecurityIdentity().getAttribute(CredentialsExpiry.ATTRIBUTE) != null
                && context.normalizedPath().equals(servedPath)) {
            context.setUser(new QuarkusHttpUser(handedOver(user.getSecurityIdentity())));
        }
        context.next();
    }

    static SecurityIdentity handedOver(SecurityIdentity identity) {
        Map<String, Object> attributes = new HashMap<>(identity.getAttributes());
        attributes.put(CredentialsExpiry.HANDED_OVER, attributes.remove(CredentialsExpiry.ATTRIBUTE));
        return new HandedOver(identity, Map.copyOf(attributes));
    }

    /** {@code identity} with {@code attributes} in place of its own; everything else is its own. */
    private record HandedOver(SecurityIdentity identity, Map<String, Object> attributes) implements SecurityIdentity {

        @Override
        public Principal getPrincipal() {
            return identity.getPrincipal();
        }

        @Override
        public boolean isAnonymous() {
            return identity.isAnonymous();
        }

        @Override
        public Set<String> getRoles() {
            return identity.getRoles();
        }

        @Override
        public boolean hasRole(String role) {
            return identity.hasRole(role);
        }

        @Override
        public Set<Permission> getPermissions() {
            return identity.getPermissions();
        }

        @Override
        public <T extends Credential> T getCredential(Class<T> type) {
            return identity.getCredential(type);
        }

        @Override
        public Set<Credential> getCredentials() {
            return identity.getCredentials();
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T getAttribute(String name) {
            return (T) attributes.get(name);
        }

        @Override
        public Map<String, Object> getAttributes() {
            return attributes;
        }

        @Override
        public Uni<Boolean> checkPermission(Permission permission) {
            return identity.checkPermission(permission);
        }
    }
}
