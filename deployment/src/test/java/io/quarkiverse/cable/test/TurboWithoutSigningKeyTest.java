package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.TurboStreams;
import io.quarkus.test.QuarkusUnitTest;

/** An application that uses TurboStreams without a signing key fails at startup, naming the property. */
class TurboWithoutSigningKeyTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(UsesTurbo.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("quarkus.cable.turbo.signing-key"));

    @Test
    void startupFails() {
        fail("Startup should have failed");
    }

    @Singleton
    public static class UsesTurbo {
        @Inject
        TurboStreams turbo;
    }
}
