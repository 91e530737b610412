package io.quarkiverse.cable.deployment.database;

import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigDocDefault;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The database adapter's build-time settings: which datasource, and which persistence unit gets the entities. */
@ConfigMapping(prefix = "quarkus.cable")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
public interface CableDatabaseBuildTimeConfig {

    /**
     * The name of the JDBC datasource that holds the cable tables. Unset means the default datasource.
     */
    @ConfigDocDefault("the default datasource")
    Optional<String> datasource();

    /**
     * The Hibernate ORM persistence unit to which the `CableMessageEntity` and `CableChannelEntity` entities are
     * added. It must use the cable's datasource. Used only when the application has Hibernate ORM with Panache;
     * whatever that unit's schema management strategy, it never changes the cable's tables.
     */
    @WithDefault("<default>")
    String persistenceUnit();
}
