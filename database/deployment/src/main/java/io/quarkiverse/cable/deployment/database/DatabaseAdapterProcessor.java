package io.quarkiverse.cable.deployment.database;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.quarkiverse.cable.deployment.CableBuildTimeConfig;
import io.quarkiverse.cable.deployment.CableBuildTimeConfig.Adapter;
import io.quarkiverse.cable.deployment.CableStartedBuildItem;
import io.quarkiverse.cable.deployment.CableTransportBuildItem;
import io.quarkiverse.cable.runtime.database.DatabaseRecorder;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkus.agroal.spi.JdbcDataSourceSchemaReadyBuildItem;
import io.quarkus.bootstrap.classloading.QuarkusClassLoader;
import io.quarkus.datasource.common.runtime.DataSourceUtil;
import io.quarkus.datasource.deployment.spi.DefaultDataSourceDbKindBuildItem;
import io.quarkus.datasource.runtime.DataSourceBuildTimeConfig;
import io.quarkus.datasource.runtime.DataSourcesBuildTimeConfig;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.Consume;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.AdditionalIndexedClassesBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceBuildItem;
import io.quarkus.deployment.pkg.builditem.CurateOutcomeBuildItem;
import io.quarkus.hibernate.orm.deployment.spi.AdditionalJpaModelBuildItem;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * The database adapter: whether it applies, its transport on the chosen datasource, its tables' DDL and routines in
 * the native image, and its query entities.
 */
class DatabaseAdapterProcessor {

    /** Named, not referenced: the entity classes extend Panache's, which an application without it lacks. */
    private static final List<String> ENTITIES = List.of("io.quarkiverse.cable.entity.CableMessageEntity",
            "io.quarkiverse.cable.entity.CableChannelEntity");
    /** quarkus-hibernate-orm-panache declares no capability: its base class tells whether the application has it. */
    private static final String PANACHE_ENTITY_BASE = "io.quarkus.hibernate.orm.panache.PanacheEntityBase";

    /**
     * The adapter applies when the chosen datasource is configured (unless {@code quarkus.cable.adapter=memory}), or
     * when asked for. Asked for on a datasource that is named but missing, or of a kind the cable has no SQL for, it
     * fails the build naming the property.
     * <p>
     * This reads the datasource configuration rather than Agroal's datasource build items: the entities' indexing
     * depends on this decision, and Agroal's items are produced after the index.
     */
    @BuildStep
    void chooseDatasource(CableBuildTimeConfig cable, CableDatabaseBuildTimeConfig config,
            DataSourcesBuildTimeConfig datasources,
            List<DefaultDataSourceDbKindBuildItem> defaultDbKinds, CurateOutcomeBuildItem curateOutcome,
            BuildProducer<DatabaseAdapterBuildItem> chosen) {
        if (cable.adapter().orElse(Adapter.DATABASE) != Adapter.DATABASE) {
            return;
        }
        String name = config.datasource().orElse(DataSourceUtil.DEFAULT_DATASOURCE_NAME);
        DataSourceBuildTimeConfig datasource = datasources.dataSources().get(name);
        Optional<String> dbKind = datasource == null ? Optional.empty()
                : DefaultDataSourceDbKindBuildItem.resolve(datasource.dbKind(), defaultDbKinds,
                        DataSourceUtil.isDefault(name) || datasource.devservices().enabled().orElse(false),
                        curateOutcome);
        if (dbKind.isEmpty()) {
            if (cable.adapter().isEmpty()) {
                return; // no datasource, nothing asked: the core's memory adapter
            }
            String which = config.datasource().isPresent()
                    ? "quarkus.cable.datasource names datasource '" + name + "'"
                    : "quarkus.cable.adapter is database and quarkus.cable.datasource is unset, so it uses the default"
                            + " datasource";
            throw new ConfigurationException(which + ", but no such JDBC datasource is configured. Set"
                    + " quarkus.cable.datasource to a configured datasource, or configure this one (quarkus.datasource."
                    + (DataSourceUtil.isDefault(name) ? "" : "\"" + name + "\".") + "db-kind).",
                    Set.of("quarkus.cable.datasource"));
        }
        if (!SqlDialect.supports(dbKind.get())) {
            throw new ConfigurationException("quarkus.cable.datasource: datasource '" + name + "' is of kind '"
                    + dbKind.get() + "'; Quarkus Cable supports h2, postgresql, mariadb and mysql",
                    Set.of("quarkus.cable.datasource"));
        }
        chosen.produce(new DatabaseAdapterBuildItem(name, dbKind.get()));
    }

    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    void transport(DatabaseRecorder recorder, Optional<DatabaseAdapterBuildItem> database,
            BuildProducer<CableTransportBuildItem> transport) {
        database.ifPresent(chosen -> transport.produce(new CableTransportBuildItem(Adapter.DATABASE,
                recorder.transport(chosen.datasourceName(), chosen.dbKind()))));
    }

    /**
     * After the engine started (the tables exist): Hibernate ORM waits for the schema-ready item, so its validation
     * sees the tables.
     */
    @BuildStep
    @Consume(CableStartedBuildItem.class)
    void schemaReady(Optional<DatabaseAdapterBuildItem> database,
            BuildProducer<JdbcDataSourceSchemaReadyBuildItem> schemaReady) {
        database.ifPresent(chosen -> schemaReady.produce(new JdbcDataSourceSchemaReadyBuildItem(
                List.of(chosen.datasourceName()))));
    }

    /**
     * The entities join the configured persistence unit, and the index so Panache enhances them: only when the
     * application has Hibernate ORM with Panache (both optional dependencies of the adapter), which the entities need.
     */
    @BuildStep
    void entities(Optional<DatabaseAdapterBuildItem> database, CableDatabaseBuildTimeConfig config, Capabilities capabilities,
            BuildProducer<AdditionalIndexedClassesBuildItem> indexed, BuildProducer<AdditionalJpaModelBuildItem> models) {
        if (database.isEmpty() || !capabilities.isPresent(Capability.HIBERNATE_ORM)
                || !QuarkusClassLoader.isClassPresentAtRuntime(PANACHE_ENTITY_BASE)) {
            return;
        }
        for (String entity : ENTITIES) {
            indexed.produce(new AdditionalIndexedClassesBuildItem(entity));
            models.produce(new AdditionalJpaModelBuildItem(entity, Set.of(config.persistenceUnit())));
        }
    }

    @BuildStep
    void ddlResources(Optional<DatabaseAdapterBuildItem> database, BuildProducer<NativeImageResourceBuildItem> resources) {
        database.ifPresent(chosen -> {
            resources.produce(new NativeImageResourceBuildItem(SqlDialect.forDbKind(chosen.dbKind()).ddlResource()));
            // The SQL broadcast's routine templates (a few KB; H2 reads none).
            resources.produce(new NativeImageResourceBuildItem(SqlDialect.ROUTINE_RESOURCES));
        });
    }
}
