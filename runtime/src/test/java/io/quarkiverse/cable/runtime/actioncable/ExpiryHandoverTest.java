package io.quarkiverse.cable.runtime.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.Permission;
import java.security.Principal;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.runtime.core.CredentialsExpiry;
import io.quarkus.security.credential.Credential;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * The identity an Action Cable upgrade goes on with: WebSockets Next no longer sees its expiry (it would close the
 * connection itself, 1008, before the cable says {@code token_expired}), the cable still does, and nothing else of the
 * identity changes.
 */
class ExpiryHandoverTest {

    @Test
    void theExpiryMovesOutOfWebSocketsNextsSightAndTheRestStays() {
        long expiry = Instant.now().getEpochSecond() + 60;
        SecurityIdentity identity = new Identity(Map.of(CredentialsExpiry.ATTRIBUTE, expiry, "tenant", "acme"));

        SecurityIdentity handed = ExpiryHandover.handedOver(identity);

        assertThat((Object) handed.getAttribute(CredentialsExpiry.ATTRIBUTE)).isNull();
        assertThat(handed.getAttributes()).doesNotContainKey(CredentialsExpiry.ATTRIBUTE)
                .containsEntry("tenant", "acme").containsEntry(CredentialsExpiry.HANDED_OVER, expiry);
        assertThat(CredentialsExpiry.of(handed)).isEqualTo(Instant.ofEpochSecond(expiry));
        assertThat(handed.getPrincipal().getName()).isEqualTo("ann");
        assertThat(handed.hasRole("writer")).isTrue();
        assertThat(handed.getRoles()).containsExactly("writer");
        assertThat(handed.isAnonymous()).isFalse();
        assertThat(handed.checkPermission(new RuntimePermission("speak")).await().indefinitely()).isTrue();
        assertThat(handed.checkPermission(new RuntimePermission("shout")).await().indefinitely()).isFalse();
    }

    /** A signed-in user, {@code ann}, with the role {@code writer} and the permission {@code speak}. */
    private record Identity(Map<String, Object> attributes) implements SecurityIdentity {

        @Override
        public Principal getPrincipal() {
            return () -> "ann";
        }

        @Override
        public boolean isAnonymous() {
            return false;
        }

        @Override
        public Set<String> getRoles() {
            return Set.of("writer");
        }

        @Override
        public boolean hasRole(String role) {
            return getRoles().contains(role);
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
            return Uni.createFrom().item(permission.getName().equals("speak"));
        }
    }
}
