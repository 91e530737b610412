package io.quarkiverse.cable.runtime;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.util.Set;
import java.util.concurrent.Executor;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The runtime's layers (docs: architecture.adoc), as rules on the compiled classes: the core in the middle knows no
 * adapter and no front end, adapters below know no front end and not each other, front ends above know no adapter,
 * only the assembly chooses an adapter, the transport SPI between the core and the adapters knows none of them, and no
 * two packages depend on each other.
 */
class LayersTest {

    private static final String RUNTIME = "io.quarkiverse.cable.runtime";
    private static final String CORE = RUNTIME + ".core";
    private static final String SPI = "io.quarkiverse.cable.spi";
    private static final String DATABASE = RUNTIME + ".database";
    private static final String MEMORY = RUNTIME + ".memory";
    private static final String FRONT_END_SHARED = RUNTIME + ".frontend";
    private static final String[] FRONT_ENDS = { RUNTIME + ".websocket", RUNTIME + ".actioncable", RUNTIME + ".sse",
            RUNTIME + ".http" };

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.quarkiverse.cable");
    }

    @Test
    void layers() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Api").definedBy("io.quarkiverse.cable", "io.quarkiverse.cable.entity")
                .layer("Testing").definedBy("io.quarkiverse.cable.testing")
                .layer("Spi").definedBy(SPI)
                .layer("Assembly").definedBy(RUNTIME)
                .layer("Core").definedBy(CORE)
                .layer("Adapters").definedBy(DATABASE, MEMORY)
                .layer("FrontEnds").definedBy(FRONT_ENDS)
                .layer("Observability").definedBy(RUNTIME + ".observability")
                .layer("Internals").definedBy(RUNTIME + ".internals")
                .layer("FrontEndShared").definedBy(FRONT_END_SHARED)
                .whereLayer("Assembly").mayNotBeAccessedByAnyLayer()
                .whereLayer("Adapters").mayOnlyBeAccessedByLayers("Assembly")
                .whereLayer("FrontEnds").mayOnlyBeAccessedByLayers("Assembly")
                .whereLayer("Observability").mayNotBeAccessedByAnyLayer()
                .whereLayer("Internals").mayOnlyBeAccessedByLayers("Assembly", "FrontEnds")
                .whereLayer("FrontEndShared").mayOnlyBeAccessedByLayers("Assembly", "FrontEnds")
                .whereLayer("Core").mayOnlyBeAccessedByLayers("Assembly", "Adapters", "FrontEnds", "FrontEndShared",
                        "Observability", "Internals", "Testing")
                .whereLayer("Spi").mayOnlyBeAccessedByLayers("Assembly", "Core", "Adapters", "FrontEnds",
                        "FrontEndShared", "Observability")
                .check(classes);
    }

    /**
     * The SPI is what the core and an adapter agree on: it stands on the public API alone and names no storage
     * technology (an adapter wraps its JDBC failures in a {@code StoreException}).
     */
    @Test
    void spiKnowsNoImplementation() {
        noClasses().that().resideInAPackage(SPI).should().dependOnClassesThat().resideInAPackage(RUNTIME + "..")
                .check(classes);
        noClasses().that().resideInAPackage(SPI).should().dependOnClassesThat().resideInAnyPackage("java.sql..",
                "javax.sql..", "io.agroal..").check(classes);
    }

    /**
     * What an adapter takes from the core is the SPI's (the transport contract, the subscribers, the counters) and the
     * cable's configuration: the mapping, the settings read from it and the rules an adapter validates its own
     * settings with, nothing of the engine's workings.
     */
    @Test
    void adaptersTakeOnlyTheConfigurationFromTheCore() {
        Set<String> configuration = Set.of("CableRuntimeConfig", "CableConfigCheck", "HistorySettings",
                "PresenceSettings");
        DescribedPredicate<JavaClass> coreBeyondConfiguration = DescribedPredicate.describe(
                "core types other than the configuration", type -> type.getPackageName().equals(CORE)
                        && !configuration.contains(type.getName().substring(CORE.length() + 1).split("\\$")[0]));
        noClasses().that().resideInAnyPackage(DATABASE, MEMORY).should().dependOnClassesThat(coreBeyondConfiguration)
                .check(classes);
    }

    @Test
    void adaptersDoNotKnowEachOther() {
        noClasses().that().resideInAPackage(DATABASE).should().dependOnClassesThat().resideInAPackage(MEMORY)
                .check(classes);
        noClasses().that().resideInAPackage(MEMORY).should().dependOnClassesThat().resideInAPackage(DATABASE)
                .check(classes);
    }

    /**
     * Each front end stands on the core alone (and the internals under the socket): what two front ends share, such as
     * the connection outbox, lives in the core, or in {@code runtime.frontend} when the engine has no use for it.
     */
    @Test
    void frontEndsDoNotKnowEachOther() {
        for (String frontEnd : FRONT_ENDS) {
            for (String other : FRONT_ENDS) {
                if (!frontEnd.equals(other)) {
                    noClasses().that().resideInAPackage(frontEnd).should().dependOnClassesThat()
                            .resideInAPackage(other).check(classes);
                }
            }
        }
    }

    /**
     * One execution home: only {@code CableThreads} makes threads and executors (a thread constructor or builder,
     * {@code Executors}, a JDK executor's constructor), so every thread of the cable is named there and listed in
     * architecture.adoc. Using a pool made elsewhere (Vert.x timers, Mutiny's worker pool) is not making one.
     */
    @Test
    void onlyCableThreadsMakesThreads() {
        DescribedPredicate<JavaCall<?>> makesThreads = DescribedPredicate.describe(
                "make a thread or an executor", call -> {
                    JavaClass owner = call.getTargetOwner();
                    String name = call.getName();
                    return owner.getName().startsWith("java.lang.Thread$Builder")
                            || owner.isEquivalentTo(java.util.concurrent.Executors.class)
                            || owner.isEquivalentTo(Thread.class) && (name.equals("ofVirtual")
                                    || name.equals("ofPlatform") || name.equals("startVirtualThread"))
                            || call.getTarget().getName().equals("<init>") && (owner.isAssignableTo(Thread.class)
                                    || owner.getPackageName().startsWith("java.")
                                            && owner.isAssignableTo(Executor.class));
                });
        noClasses().that().doNotHaveFullyQualifiedName(SPI + ".CableThreads").should().callCodeUnitWhere(makesThreads)
                .check(classes);
    }

    /** Every package a slice, the public API's included. */
    @Test
    void noPackageCycles() {
        slices().matching("io.quarkiverse.(**)").should().beFreeOfCycles().check(classes);
    }

    /**
     * What the front ends share and the engine does not use sits between them ({@code runtime.frontend}): it stands on
     * the core and the SPI, never on a front end, an adapter or the socket internals.
     */
    @Test
    void frontEndSharedStandsOnTheCoreAlone() {
        noClasses().that().resideInAPackage(FRONT_END_SHARED).should().dependOnClassesThat()
                .resideInAnyPackage(FRONT_ENDS).check(classes);
        noClasses().that().resideInAPackage(FRONT_END_SHARED).should().dependOnClassesThat()
                .resideInAnyPackage(DATABASE, MEMORY, RUNTIME + ".internals").check(classes);
    }

}
