package io.quarkiverse.cable.it;

import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.database.CableDatabaseConfig;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/** Real configuration mappings for cable nodes a test builds beside the application's. */
public final class CableConfigs {

    private CableConfigs() {
    }

    /** The core's mapping with its defaults, and the given {@code property, value} pairs set. */
    public static CableRuntimeConfig with(String... propertiesAndValues) {
        return mapped(propertiesAndValues).getConfigMapping(CableRuntimeConfig.class);
    }

    /** The database adapter's mapping with its defaults, and the given {@code property, value} pairs set. */
    public static CableDatabaseConfig database(String... propertiesAndValues) {
        return mapped(propertiesAndValues).getConfigMapping(CableDatabaseConfig.class);
    }

    /** Both mappings share the prefix {@code quarkus.cable}, as in an application. */
    private static SmallRyeConfig mapped(String... propertiesAndValues) {
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder().addDiscoveredConverters()
                .withMapping(CableRuntimeConfig.class).withMapping(CableDatabaseConfig.class);
        for (int i = 0; i < propertiesAndValues.length; i += 2) {
            builder.withDefaultValue(propertiesAndValues[i], propertiesAndValues[i + 1]);
        }
        return builder.build();
    }
}
