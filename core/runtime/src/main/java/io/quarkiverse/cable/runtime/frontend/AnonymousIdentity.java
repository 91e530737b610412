package io.quarkiverse.cable.runtime.frontend;

import java.security.Permission;
import java.security.Principal;
import java.util.Map;
import java.util.Set;

import io.quarkus.security.credential.Credential;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * The identity of a request nobody authenticated, for {@link io.quarkiverse.cable.StreamRequest#identity()} (never
 * null) when the application has no Quarkus Security extension to make one: no principal name, no role, no permission.
 */
final class AnonymousIdentity implements SecurityIdentity {

    static final SecurityIdentity INSTANCE = new AnonymousIdentity();

    private static final Principal NOBODY = () -> "";

    private AnonymousIdentity() {
    }

    @Override
    public Principal getPrincipal() {
        return NOBODY;
    }

    @Override
    public boolean isAnonymous() {
        return true;
    }

    @Override
    public Set<String> getRoles() {
        return Set.of();
    }

    @Override
    public boolean hasRole(String role) {
        return false;
    }

    @Override
    public Set<Permission> getPermissions() {
        return Set.of();
    }

    @Override
    public <T extends Credential> T getCredential(Class<T> type) {
        return null;
    }

    @Override
    public Set<Credential> getCredentials() {
        return Set.of();
    }

    @Override
    public <T> T getAttribute(String name) {
        return null;
    }

    @Override
    public Map<String, Object> getAttributes() {
        return Map.of();
    }

    @Override
    public Uni<Boolean> checkPermission(Permission permission) {
        return Uni.createFrom().item(false);
    }
}
