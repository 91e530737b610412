package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** Naming a datasource that does not exist fails the build and says which property to fix. */
class UnknownDatasourceTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.datasource.db-kind", "h2")
            .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:h2:mem:unknown-ds")
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.cable.adapter", "database")
            .overrideConfigKey("quarkus.cable.datasource", "inventory")
            .assertException(t -> assertThat(rootMessage(t))
                    .contains("quarkus.cable.datasource")
                    .contains("'inventory'"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }

    static String rootMessage(Throwable t) {
        StringBuilder messages = new StringBuilder();
        for (Throwable cause = t; cause != null; cause = cause.getCause()) {
            messages.append(cause.getMessage()).append('\n');
        }
        return messages.toString();
    }
}
