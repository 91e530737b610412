package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * With the production default ({@code validate}) a database without the cable's tables fails startup, and the error
 * carries the DDL to run.
 */
class SchemaValidateFailsFastTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.datasource.db-kind", "h2")
            .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:h2:mem:schema-validate")
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideRuntimeConfigKey("quarkus.cable.schema.strategy", "validate")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("quarkus.cable.schema.strategy is validate")
                    .contains("CREATE TABLE IF NOT EXISTS cable_messages (")
                    .contains("CREATE INDEX IF NOT EXISTS cable_messages_created_at ON cable_messages (created_at);")
                    .contains("CREATE TABLE IF NOT EXISTS cable_writers ("));

    @Test
    void startupFails() {
        fail("Startup should have failed");
    }
}
