package io.quarkiverse.cable.withoutorm;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A memory-only application ({@code quarkus.cable.adapter=memory}) that configures no datasource: it starts and
 * broadcasts, and logs no warning about datasources (an application with Hibernate ORM forced on it used to).
 */
class MemoryAdapterWithoutDatasourceTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Broadcasts.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .setLogRecordPredicate(Broadcasts::isWarning)
            .assertLogRecords(warnings -> assertThat(Broadcasts.datasourceWarnings(warnings)).isEmpty());

    @Inject
    Cable cable;

    @Test
    void startsAndBroadcastsInMemory() throws Exception {
        Broadcasts.hibernateIsAbsent();
        assertThat(cable.adapter()).isEqualTo("memory");
        Broadcasts.deliverOne(cable);
    }
}
