package io.quarkiverse.cable.withoutorm;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An application with a JDBC datasource and without Hibernate ORM or Panache: the cable runs its database adapter
 * (Agroal only), the query entities are simply not registered, and nothing warns about datasources.
 */
class DatabaseAdapterWithoutOrmTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Broadcasts.class))
            .overrideConfigKey("quarkus.datasource.db-kind", "h2")
            .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:h2:mem:without-orm;DB_CLOSE_DELAY=-1")
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            // Agroal's 5 s default failed the start on a loaded 2-core machine.
            .overrideConfigKey("quarkus.datasource.jdbc.acquisition-timeout", "30S")
            .setLogRecordPredicate(Broadcasts::isWarning)
            .assertLogRecords(warnings -> assertThat(Broadcasts.datasourceWarnings(warnings)).isEmpty());

    @Inject
    Cable cable;

    @Test
    void startsAndBroadcastsThroughTheDatabase() throws Exception {
        Broadcasts.hibernateIsAbsent();
        assertThat(cable.adapter()).isEqualTo("database");
        Broadcasts.deliverOne(cable);
    }
}
