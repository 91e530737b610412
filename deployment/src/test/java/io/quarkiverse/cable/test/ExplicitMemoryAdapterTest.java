package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkus.test.QuarkusUnitTest;

/** quarkus.cable.adapter=memory wins over an existing datasource. */
class ExplicitMemoryAdapterTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.datasource.db-kind", "h2")
            .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:h2:mem:explicit-memory")
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.cable.adapter", "memory");

    @Inject
    Cable cable;

    @Test
    void usesMemory() {
        assertThat(cable.adapter()).isEqualTo("memory");
    }
}
