package io.quarkiverse.cable.runtime.core;

import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigDocDefault;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Choices fixed when the application is built: which adapter carries broadcasts and on which datasource.
 */
@ConfigMapping(prefix = "quarkus.cable")
@ConfigRoot(phase = ConfigPhase.BUILD_AND_RUN_TIME_FIXED)
public interface CableBuildTimeConfig {

    /**
     * The adapter that carries broadcasts between subscribers. `database` stores every broadcast in the
     * application's database so every node sharing it receives it; `memory` keeps broadcasts inside this process
     * (like Action Cable's async adapter, for single-node apps and tests). Defaults to `database` when the chosen
     * JDBC datasource exists, `memory` otherwise.
     */
    @ConfigDocDefault("database if the datasource exists, memory otherwise")
    Optional<Adapter> adapter();

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

    /**
     * Whether a broadcast made inside an active JTA transaction (`@Transactional`, Panache) joins it: delivered if
     * and only if the transaction commits, and stored atomically with it when the transaction uses the cable's
     * datasource. `false` broadcasts at once everywhere, as `Cable.withoutTransaction()` does for one call. Applies
     * only when the application has a transaction manager (`quarkus-narayana-jta`, which Hibernate ORM brings).
     */
    @WithDefault("true")
    boolean transactional();

    /**
     * The Action Cable endpoint.
     */
    ActionCableBuildTime actionCable();

    /**
     * Health check settings.
     */
    HealthBuildTime health();

    /**
     * Metrics settings.
     */
    MetricsBuildTime metrics();

    interface ActionCableBuildTime {
        /**
         * The path of the Action Cable endpoint (`actioncable-v1-json`), where `@rails/actioncable`, `@anycable/web`
         * and Turbo's `<turbo-cable-stream-source>` connect. Fixed at build time: the endpoint is a WebSockets Next
         * endpoint, whose path is part of the build. Under `quarkus.http.root-path` it is served below that path.
         */
        @WithDefault("/cable")
        String mountPath();
    }

    interface HealthBuildTime {
        /**
         * Whether the cable's readiness and liveness checks are registered when `quarkus-smallrye-health` is present.
         */
        @WithDefault("true")
        boolean enabled();
    }

    interface MetricsBuildTime {
        /**
         * Whether the cable publishes its metrics when `quarkus-micrometer` is present.
         */
        @WithDefault("true")
        boolean enabled();
    }

    enum Adapter {
        DATABASE,
        MEMORY;

        public String configName() {
            return name().toLowerCase();
        }
    }
}
