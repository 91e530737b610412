package io.quarkiverse.cable.deployment;

import java.util.Optional;
import java.util.Set;

import jakarta.inject.Singleton;

import org.jboss.jandex.DotName;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.deployment.CableBuildTimeConfig.Adapter;
import io.quarkiverse.cable.runtime.CableIdentitiesBean;
import io.quarkiverse.cable.runtime.CableRecorder;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CablePresenceBean;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.core.MutinyCableBean;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeansRuntimeInitBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.bootstrap.classloading.QuarkusClassLoader;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.Consume;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Produce;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.AdditionalIndexedClassesBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.ServiceStartBuildItem;
import io.quarkus.deployment.builditem.ShutdownContextBuildItem;
import io.quarkus.runtime.configuration.ConfigurationException;

class CableProcessor {

    private static final String FEATURE = "cable";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
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
    void cableBeans(CableRecorder recorder, CableBuildTimeConfig config, Optional<CableTransportBuildItem> transport,
            BuildProducer<CableEngineBuildItem> engines, BuildProducer<SyntheticBeanBuildItem> beans) {
        if (transport.isEmpty() && config.adapter().orElse(Adapter.MEMORY) != Adapter.MEMORY) {
            throw new ConfigurationException("quarkus.cable.adapter is " + config.adapter().get().configName()
                    + ", but the application does not have that adapter: add io.quarkiverse.cable:quarkus-cable-database"
                    + " (or quarkus-cable, which has every part), or set quarkus.cable.adapter=memory",
                    Set.of("quarkus.cable.adapter"));
        }
        var engine = transport.isPresent()
                ? recorder.createCable(transport.get().factory())
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
        // The presence and identities APIs, whichever front end (or none) the application serves.
        beans.produce(AdditionalBeanBuildItem.unremovableOf(CablePresenceBean.class));
        beans.produce(AdditionalBeanBuildItem.unremovableOf(CableIdentitiesBean.class));
        // CableEventStream's types are JAX-RS's: its bean exists only where the application has an implementation,
        // and it is named, not loaded, so that an application without JAX-RS never loads it.
        if (QuarkusClassLoader.isClassPresentAtRuntime("jakarta.ws.rs.sse.OutboundSseEvent")) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf("io.quarkiverse.cable.runtime.sse.CableEventStreamBean"));
        }
    }

    /**
     * Starts the cable once its beans exist: the adapter's start (the database adapter's tables, poller and writer),
     * then the transactions it joins.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    @Consume(SyntheticBeansRuntimeInitBuildItem.class)
    @Produce(CableStartedBuildItem.class)
    ServiceStartBuildItem start(CableRecorder recorder, CableEngineBuildItem engine, ShutdownContextBuildItem shutdown,
            Capabilities capabilities, CableBuildTimeConfig config) {
        recorder.start(engine.engine(), shutdown, joinsTransactions(capabilities, config));
        return new ServiceStartBuildItem(FEATURE);
    }
}
