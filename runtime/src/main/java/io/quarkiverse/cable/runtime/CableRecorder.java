package io.quarkiverse.cable.runtime;

import javax.sql.DataSource;

import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.database.DatabaseTransport;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.runtime.memory.MemoryTransport;
import io.quarkus.agroal.runtime.AgroalDataSourceUtil;
import io.quarkus.datasource.common.runtime.DataSourceUtil;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.ShutdownContext;
import io.quarkus.runtime.annotations.Recorder;

/**
 * Builds the cable at runtime init on the adapter chosen at build time (the one place a transport is chosen), and
 * starts and stops it with the application.
 */
@Recorder
public class CableRecorder {

    private final RuntimeValue<CableRuntimeConfig> config;

    public CableRecorder(RuntimeValue<CableRuntimeConfig> config) {
        this.config = config;
    }

    /** The configuration is validated here, once; an invalid value fails startup naming its property. */
    public RuntimeValue<CableEngine> createDatabaseCable(String datasourceName, String dbKind) {
        return new RuntimeValue<>(CableEngine.create(config.getValue(), DatabaseTransport.factory(datasourceName,
                () -> dataSource(datasourceName), SqlDialect.forDbKind(dbKind), config.getValue())));
    }

    public RuntimeValue<CableEngine> createMemoryCable() {
        return new RuntimeValue<>(CableEngine.create(config.getValue(), MemoryTransport.factory(config.getValue())));
    }

    /** {@code transactional}: the application has a transaction manager and quarkus.cable.transactional is true. */
    public void start(RuntimeValue<CableEngine> cable, ShutdownContext shutdown, boolean transactional) {
        CableEngine engine = cable.getValue();
        engine.start();
        if (transactional) {
            CableRuntimeConfig.Writer writer = config.getValue().writer();
            engine.joinTransactions(writer.maxTransactionBroadcasts().orElse(writer.queueCapacity()));
        }
        shutdown.addShutdownTask(engine::stop);
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
