package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.TurboStreams;
import io.quarkus.arc.Arc;
import io.quarkus.arc.profile.UnlessBuildProfile;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A class that uses TurboStreams but is left out of this build ({@code @UnlessBuildProfile}, as the demo's signing
 * endpoint is left out of production builds) does not make the key required: the application starts without one.
 */
class TurboUserOutsideTheBuildTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(NotInTestBuilds.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory");

    @Test
    void startsWithoutASigningKey() {
        assertThat(Arc.container().instance(NotInTestBuilds.class).isAvailable()).isFalse();
    }

    @Singleton
    @UnlessBuildProfile("test")
    public static class NotInTestBuilds {
        @Inject
        TurboStreams turbo;
    }
}
