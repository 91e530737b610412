package io.quarkiverse.cable.runtime;

import javax.sql.DataSource;

import io.quarkiverse.cable.runtime.config.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.config.CableSettings;
import io.quarkiverse.cable.runtime.memory.MemoryTransport;
import io.quarkiverse.cable.runtime.store.SqlDialect;
import io.quarkiverse.cable.runtime.subscribers.SubscriberMap;
import io.quarkus.agroal.runtime.AgroalDataSourceUtil;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.ShutdownContext;
import io.quarkus.runtime.annotations.Recorder;

/**
 * Builds the cable at runtime init from the adapter chosen at build time, and starts and stops it with the
 * application.
 */
@Recorder
public class CableRecorder {

    private final RuntimeValue<CableRuntimeConfig> config;

    public CableRecorder(RuntimeValue<CableRuntimeConfig> config) {
        this.config = config;
    }

    /** The configuration is read and validated here, once; an invalid value fails startup naming its property. */
    public RuntimeValue<CableEngine> createDatabaseCable(String datasourceName, String dbKind) {
        CableSettings settings = CableSettings.from(config.getValue());
        SubscriberMap subscribers = new SubscriberMap();
        CableStats stats = new CableStats();
        DatabaseTransport transport = new DatabaseTransport(datasourceName, () -> dataSource(datasourceName),
                SqlDialect.forDbKind(dbKind), subscribers, settings, stats);
        return new RuntimeValue<>(new CableEngine(transport, subscribers, settings, stats));
    }

    public RuntimeValue<CableEngine> createMemoryCable() {
        CableSettings settings = CableSettings.from(config.getValue());
        SubscriberMap subscribers = new SubscriberMap();
        CableStats stats = new CableStats();
        return new RuntimeValue<>(new CableEngine(new MemoryTransport(subscribers, stats), subscribers, settings, stats));
    }

    public void start(RuntimeValue<CableEngine> cable, ShutdownContext shutdown) {
        CableEngine engine = cable.getValue();
        engine.start();
        shutdown.addShutdownTask(engine::stop);
    }

    private static DataSource dataSource(String name) {
        return AgroalDataSourceUtil.dataSourceIfActive(name).orElseThrow(() -> new IllegalStateException(
                "Quarkus Cable uses datasource '" + name + "' (quarkus.cable.datasource), which is not active"));
    }
}
