package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * A JDBC driver and no URL (Dev Services off): Quarkus deactivates the datasource, so the database adapter cannot
 * start. The error names the property to set and the memory adapter, not only "not active".
 */
class DatasourceWithoutUrlTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.datasource.db-kind", "h2")
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("datasource '<default>'")
                    .contains("Set quarkus.datasource.jdbc.url")
                    .contains("quarkus.cable.adapter=memory"));

    @Test
    void startFails() {
        fail("The start should have failed");
    }
}
