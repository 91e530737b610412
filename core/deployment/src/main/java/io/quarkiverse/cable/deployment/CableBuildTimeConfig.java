package io.quarkiverse.cable.deployment;

import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigDocDefault;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The core's choices fixed when the application is built: which adapter carries broadcasts (when more than one is
 * there), whether broadcasts join transactions, the health checks and the metrics.
 */
@ConfigMapping(prefix = "quarkus.cable")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
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
     * Whether a broadcast made inside an active JTA transaction (`@Transactional`, Panache) joins it: delivered if
     * and only if the transaction commits, and stored atomically with it when the transaction uses the cable's
     * datasource. `false` broadcasts at once everywhere, as `Cable.withoutTransaction()` does for one call. Applies
     * only when the application has a transaction manager (`quarkus-narayana-jta`, which Hibernate ORM brings).
     */
    @WithDefault("true")
    boolean transactional();

    /**
     * Health check settings.
     */
    HealthBuildTime health();

    /**
     * Metrics settings.
     */
    MetricsBuildTime metrics();

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
