package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** As {@link DatasourceWithoutUrlTest}, for a named datasource: the property named is that datasource's. */
class NamedDatasourceWithoutUrlTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.datasource.\"events\".db-kind", "h2")
            .overrideConfigKey("quarkus.datasource.active", "false")
            .overrideConfigKey("quarkus.cable.datasource", "events")
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            // The default persistence unit would otherwise fail first, for want of the default datasource.
            .overrideConfigKey("quarkus.hibernate-orm.enabled", "false")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("datasource 'events'")
                    .contains("Set quarkus.datasource.\"events\".jdbc.url")
                    .contains("quarkus.cable.adapter=memory"));

    @Test
    void startFails() {
        fail("The start should have failed");
    }
}
