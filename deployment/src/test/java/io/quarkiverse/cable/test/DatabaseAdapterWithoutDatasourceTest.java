package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** Asking for the database adapter without any datasource is a build error that names the property. */
class DatabaseAdapterWithoutDatasourceTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.datasource.db-kind", "h2")
            .overrideConfigKey("quarkus.datasource.active", "false")
            .overrideConfigKey("quarkus.cable.datasource", "events")
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.cable.adapter", "database")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("quarkus.cable.datasource names datasource 'events'")
                    .contains("no such JDBC datasource"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }
}
