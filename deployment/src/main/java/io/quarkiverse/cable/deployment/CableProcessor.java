package io.quarkiverse.cable.deployment;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.inject.Singleton;

import org.jboss.jandex.DotName;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.runtime.CableRecorder;
import io.quarkiverse.cable.runtime.core.CableBuildTimeConfig;
import io.quarkiverse.cable.runtime.core.CableBuildTimeConfig.Adapter;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.core.MutinyCableBean;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkus.agroal.spi.JdbcDataSourceSchemaReadyBuildItem;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeansRuntimeInitBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
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
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.ServiceStartBuildItem;
import io.quarkus.deployment.builditem.ShutdownContextBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceBuildItem;
import io.quarkus.deployment.pkg.builditem.CurateOutcomeBuildItem;
import io.quarkus.hibernate.orm.deployment.spi.AdditionalJpaModelBuildItem;
import io.quarkus.runtime.configuration.ConfigurationException;

class CableProcessor {

    private static final String FEATURE = "cable";
    /** Named, not referenced: the entity classes extend Panache's, which an application without it lacks. */
    private static final List<String> ENTITIES = List.of("io.quarkiverse.cable.entity.CableMessageEntity",
            "io.quarkiverse.cable.entity.CableChannelEntity");
    /** quarkus-hibernate-orm-panache declares no capability: its base class tells whether the application has it. */
    private static final String PANACHE_ENTITY_BASE = "io.quarkus.hibernate.orm.panache.PanacheEntityBase";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    /**
     * Database when the chosen datasource is configured (or when asked for), memory otherwise. A datasource that is
     * named but missing, or of a kind the cable has no SQL for, fails the build naming the property.
     * <p>
     * This reads the datasource configuration rather than Agroal's datasource build items: the entities' indexing
     * depends on this decision, and Agroal's items are produced after the index.
     */
    @BuildStep
    CableAdapterBuildItem chooseAdapter(CableBuildTimeConfig config, DataSourcesBuildTimeConfig datasources,
            List<DefaultDataSourceDbKindBuildItem> defaultDbKinds, CurateOutcomeBuildItem curateOutcome) {
        String name = config.datasource().orElse(DataSourceUtil.DEFAULT_DATASOURCE_NAME);
        DataSourceBuildTimeConfig datasource = datasources.dataSources().get(name);
        Optional<String> dbKind = datasource == null ? Optional.empty()
                : DefaultDataSourceDbKindBuildItem.resolve(datasource.dbKind(), defaultDbKinds,
                        DataSourceUtil.isDefault(name) || datasource.devservices().enabled().orElse(false),
                        curateOutcome);
        Adapter adapter = config.adapter().orElse(dbKind.isPresent() ? Adapter.DATABASE : Adapter.MEMORY);
        if (adapter == Adapter.MEMORY) {
            return CableAdapterBuildItem.memory();
        }
        if (dbKind.isEmpty()) {
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
        return CableAdapterBuildItem.database(name, dbKind.get());
    }

    /**
     * The entities join the configured persistence unit, and the index so Panache enhances them: only when the
     * application has Hibernate ORM with Panache (both optional dependencies of the cable), which the entities need.
     */
    @BuildStep
    void entities(CableAdapterBuildItem adapter, CableBuildTimeConfig config, Capabilities capabilities,
            BuildProducer<AdditionalIndexedClassesBuildItem> indexed, BuildProducer<AdditionalJpaModelBuildItem> models) {
        if (!adapter.isDatabase() || !capabilities.isPresent(Capability.HIBERNATE_ORM)
                || !QuarkusClassLoader.isClassPresentAtRuntime(PANACHE_ENTITY_BASE)) {
            return;
        }
        for (String entity : ENTITIES) {
            indexed.produce(new AdditionalIndexedClassesBuildItem(entity));
            models.produce(new AdditionalJpaModelBuildItem(entity, Set.of(config.persistenceUnit())));
        }
    }

    @BuildStep
    void ddlResources(CableAdapterBuildItem adapter, BuildProducer<NativeImageResourceBuildItem> resources) {
        if (adapter.isDatabase()) {
            resources.produce(new NativeImageResourceBuildItem(SqlDialect.forDbKind(adapter.dbKind()).ddlResource()));
            // The SQL broadcast's routine templates (a few KB; H2 reads none).
            resources.produce(new NativeImageResourceBuildItem(SqlDialect.ROUTINE_RESOURCES));
        }
    }

    /** The runtime jar is not a bean archive: its qualifier joins the index so ArC recognises it. */
    @BuildStep
    AdditionalIndexedClassesBuildItem internalQualifier() {
        return new AdditionalIndexedClassesBuildItem(Internal.class.getName());
    }

    /**
     * One engine, two beans: {@link Cable} for the application, and the engine itself under the {@link Internal}
     * qualifier for the extension's own classes, so an application cannot inject the engine by accident.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    void cableBeans(CableRecorder recorder, CableAdapterBuildItem adapter, BuildProducer<CableEngineBuildItem> engines,
            BuildProducer<SyntheticBeanBuildItem> beans) {
        var engine = adapter.isDatabase()
                ? recorder.createDatabaseCable(adapter.datasourceName(), adapter.dbKind())
                : recorder.createMemoryCable();
        engines.produce(new CableEngineBuildItem(engine));
        // Configured by the interface: a bean configured by its class would also have the class among its types.
        beans.produce(SyntheticBeanBuildItem.configure(Cable.class)
                .types(Cable.class)
                .scope(Singleton.class)
                .unremovable()
                .setRuntimeInit()
                .runtimeValue(engine)
                .done());
        beans.produce(SyntheticBeanBuildItem.configure(CableEngine.class)
                .types(CableEngine.class)
                .addQualifier(Internal.class)
                .scope(Singleton.class)
                .unremovable()
                .setRuntimeInit()
                .runtimeValue(engine)
                .done());
    }

    /** Broadcasts join JTA transactions when the application has a transaction manager, unless turned off. */
    private static boolean joinsTransactions(Capabilities capabilities, CableBuildTimeConfig config) {
        return config.transactional() && capabilities.isPresent(Capability.TRANSACTIONS);
    }

    /** The transaction manager is looked up programmatically at startup; the Mutiny API is a bean of its own. */
    @BuildStep
    void transactionAndMutinyBeans(Capabilities capabilities, CableBuildTimeConfig config,
            BuildProducer<UnremovableBeanBuildItem> unremovable, BuildProducer<AdditionalBeanBuildItem> beans) {
        if (joinsTransactions(capabilities, config)) {
            unremovable.produce(UnremovableBeanBuildItem.beanTypes(DotName.createSimple(
                    "jakarta.transaction.TransactionManager"),
                    DotName.createSimple("jakarta.transaction.TransactionSynchronizationRegistry")));
        }
        unremovable.produce(UnremovableBeanBuildItem.beanTypes(DotName.createSimple(
                "com.fasterxml.jackson.databind.ObjectMapper")));
        // Looked up programmatically by CallbackContext, to associate a callback's identity (with Quarkus Security).
        unremovable.produce(UnremovableBeanBuildItem.beanTypes(DotName.createSimple(
                "io.quarkus.security.identity.CurrentIdentityAssociation")));
        beans.produce(AdditionalBeanBuildItem.unremovableOf(MutinyCableBean.class));
        // CableEventStream's types are JAX-RS's: its bean exists only where the application has an implementation,
        // and it is named, not loaded, so that an application without JAX-RS never loads it.
        if (QuarkusClassLoader.isClassPresentAtRuntime("jakarta.ws.rs.sse.OutboundSseEvent")) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf("io.quarkiverse.cable.runtime.sse.CableEventStreamBean"));
        }
    }

    /**
     * Starts the cable once the datasources exist: creates the tables, then the poller and writer. Hibernate ORM
     * waits for the schema-ready item, so its validation sees the tables.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    @Consume(SyntheticBeansRuntimeInitBuildItem.class)
    ServiceStartBuildItem start(CableRecorder recorder, CableEngineBuildItem engine, CableAdapterBuildItem adapter,
            ShutdownContextBuildItem shutdown, BuildProducer<JdbcDataSourceSchemaReadyBuildItem> schemaReady,
            Capabilities capabilities, CableBuildTimeConfig config) {
        recorder.start(engine.engine(), shutdown, joinsTransactions(capabilities, config));
        if (adapter.isDatabase()) {
            schemaReady.produce(new JdbcDataSourceSchemaReadyBuildItem(List.of(adapter.datasourceName())));
        }
        return new ServiceStartBuildItem(FEATURE);
    }
}
