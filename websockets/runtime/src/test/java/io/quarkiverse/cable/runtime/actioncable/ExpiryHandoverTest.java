package io.quarkiverse.cable.runtime.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.runtime.frontend.CredentialsExpiry;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
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
        // A signed-in user, ann, with the role writer and the permission speak.
        SecurityIdentity identity = QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal("ann"))
                .addRole("writer").addAttributes(Map.of(CredentialsExpiry.ATTRIBUTE, expiry, "tenant", "acme"))
                .addPermissionChecker(permission -> Uni.createFrom().item(permission.getName().equals("speak")))
                .build();

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
}
