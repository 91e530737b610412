package io.quarkiverse.cable.it;

import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/** Real configuration mappings for cable nodes a test builds beside the application's. */
public final class CableConfigs {

    private CableConfigs() {
    }

    /** The mapping with its defaults, and the given {@code property, value} pairs set. */
    public static CableRuntimeConfig with(String... propertiesAndValues) {
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder().addDiscoveredConverters()
                .withMapping(CableRuntimeConfig.class);
        for (int i = 0; i < propertiesAndValues.length; i += 2) {
            builder.withDefaultValue(propertiesAndValues[i], propertiesAndValues[i + 1]);
        }
        return builder.build().getConfigMapping(CableRuntimeConfig.class);
    }
}
