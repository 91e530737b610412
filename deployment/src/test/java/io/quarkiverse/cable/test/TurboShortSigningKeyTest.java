package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A Turbo signing key shorter than 32 bytes fails startup, naming the property and the length, never the key. */
class TurboShortSigningKeyTest {

    private static final String SHORT_KEY = "short-but-not-printed";

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(TurboWithoutSigningKeyTest.UsesTurbo.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideConfigKey("quarkus.cable.turbo.signing-key", SHORT_KEY)
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("quarkus.cable.turbo.signing-key must be at least 32 bytes")
                    .contains("was " + SHORT_KEY.length() + " bytes")
                    .doesNotContain(SHORT_KEY));

    @Test
    void startupFails() {
        fail("Startup should have failed");
    }
}
