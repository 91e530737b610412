package io.quarkiverse.cable.runtime.database;

import javax.sql.DataSource;

import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.spi.TransportFactory;
import io.quarkus.agroal.runtime.AgroalDataSourceUtil;
import io.quarkus.datasource.common.runtime.DataSourceUtil;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.Recorder;

/** The database adapter's transport on the datasource chosen at build time; the core's recorder builds the cable on it. */
@Recorder
public class DatabaseRecorder {

    private final RuntimeValue<CableRuntimeConfig> config;
    private final RuntimeValue<CableDatabaseConfig> database;

    public DatabaseRecorder(RuntimeValue<CableRuntimeConfig> config, RuntimeValue<CableDatabaseConfig> database) {
        this.config = config;
        this.database = database;
    }

    /** The adapter's configuration is validated here, once; an invalid value fails startup naming its property. */
    public RuntimeValue<TransportFactory> transport(String datasourceName, String dbKind) {
        return new RuntimeValue<>(DatabaseTransport.factory(datasourceName, () -> dataSource(datasourceName),
                SqlDialect.forDbKind(dbKind), config.getValue(), database.getValue()));
    }

    private static DataSource dataSource(String name) {
        return AgroalDataSourceUtil.dataSourceIfActive(name).orElseThrow(() -> new IllegalStateException(
                inactiveDatasourceMessage(name)));
    }

    /**
     * Names what to set: a datasource whose kind is known but whose URL is not (the usual case: no Dev Services) is
     * deactivated by Quarkus, and the cable cannot run the database adapter on it.
     */
    static String inactiveDatasourceMessage(String name) {
        String prefix = DataSourceUtil.isDefault(name) ? "quarkus.datasource." : "quarkus.datasource.\"" + name + "\".";
        return "Quarkus Cable uses datasource '" + name + "' for the database adapter, but that datasource is not active"
                + " (usually: no JDBC URL is configured and Dev Services do not provide one). Set " + prefix
                + "jdbc.url (and " + prefix + "active=true if it was deactivated), point quarkus.cable.datasource at"
                + " an active datasource, or set quarkus.cable.adapter=memory to keep broadcasts inside this process"
                + " (single node only).";
    }
}
