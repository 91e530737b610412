package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A negative retention would let trimming delete what was just written; it fails startup naming the property. */
class InvalidMessageRetentionTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.datasource.db-kind", "h2")
            .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:h2:mem:invalid-retention")
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideRuntimeConfigKey("quarkus.cable.message-retention", "-1h")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("quarkus.cable.message-retention must be a positive duration, was PT-1H"));

    @Test
    void startupFails() {
        fail("Startup should have failed");
    }
}
