package io.quarkiverse.cable.runtime.frontend;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

import org.junit.jupiter.api.Test;

/** A JWT's own exp, for identities without the expire-time attribute (SmallRye JWT's). */
class CredentialsExpiryTest {

    private static String jwt(String payload) {
        Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
        return encoder.encodeToString("{\"alg\":\"RS256\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + encoder.encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + ".c2lnbmF0dXJl";
    }

    @Test
    void aJwtsExpIsItsExpiry() {
        assertThat(CredentialsExpiry.jwtExpiry(jwt("{\"upn\":\"ann\",\"exp\":1796353716}")))
                .isEqualTo(Instant.ofEpochSecond(1796353716));
    }

    @Test
    void anythingElseHasNone() {
        assertThat(CredentialsExpiry.jwtExpiry(jwt("{\"upn\":\"ann\"}"))).isNull(); // no exp
        assertThat(CredentialsExpiry.jwtExpiry(jwt("{\"exp\":\"soon\"}"))).isNull();
        assertThat(CredentialsExpiry.jwtExpiry(jwt("[1]"))).isNull();
        assertThat(CredentialsExpiry.jwtExpiry("opaque-token")).isNull();
        assertThat(CredentialsExpiry.jwtExpiry("a.%%%.c")).isNull();
        assertThat(CredentialsExpiry.jwtExpiry("a.b")).isNull();
        assertThat(CredentialsExpiry.jwtExpiry(null)).isNull();
        assertThat(CredentialsExpiry.of(null)).isNull();
    }
}
