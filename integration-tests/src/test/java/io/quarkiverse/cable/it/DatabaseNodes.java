package io.quarkiverse.cable.it;

import java.util.function.Supplier;

import javax.sql.DataSource;

import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.database.DatabaseTransport;
import io.quarkiverse.cable.runtime.database.SqlDialect;

/** A second node inside the test's process: an engine on the database adapter, built as the recorder builds one. */
public final class DatabaseNodes {

    private DatabaseNodes() {
    }

    public static CableEngine node(String name, Supplier<DataSource> dataSource, SqlDialect dialect,
            CableRuntimeConfig config) {
        return CableEngine.create(config, DatabaseTransport.factory(name, dataSource, dialect, config));
    }
}
