package io.quarkiverse.cable.coreonly;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.test.QuarkusUnitTest;

/** Asking the core alone for the database adapter fails the build and names the artifact to add. */
class DatabaseAdapterNeedsItsModuleTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.cable.adapter", "database")
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .assertException(failure -> {
                Throwable cause = failure;
                while (!(cause instanceof ConfigurationException) && cause.getCause() != null) {
                    cause = cause.getCause();
                }
                assertThat(cause).isInstanceOf(ConfigurationException.class);
                assertThat(cause.getMessage()).contains("quarkus.cable.adapter")
                        .contains("io.quarkiverse.cable:quarkus-cable-database");
            });

    @Test
    void failsTheBuild() {
        // assertException above checks the failure
    }
}
