package io.quarkiverse.cable.it;

import java.util.function.Supplier;

import javax.sql.DataSource;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.database.CableDatabaseConfig;
import io.quarkiverse.cable.runtime.database.DatabaseTransport;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.smallrye.config.SmallRyeConfig;

/** A second node inside the test's process: an engine on the database adapter, built as the recorder builds one. */
public final class DatabaseNodes {

    private DatabaseNodes() {
    }

    /** With the application's database adapter settings. */
    public static CableEngine node(String name, Supplier<DataSource> dataSource, SqlDialect dialect,
            CableRuntimeConfig config) {
        return node(name, dataSource, dialect, config, applicationDatabaseConfig());
    }

    public static CableEngine node(String name, Supplier<DataSource> dataSource, SqlDialect dialect,
            CableRuntimeConfig config, CableDatabaseConfig database) {
        return CableEngine.create(config, DatabaseTransport.factory(name, dataSource, dialect, config, database));
    }

    /** The database adapter's settings of the application under test (its configuration maps them). */
    public static CableDatabaseConfig applicationDatabaseConfig() {
        return ConfigProvider.getConfig().unwrap(SmallRyeConfig.class).getConfigMapping(CableDatabaseConfig.class);
    }
}
