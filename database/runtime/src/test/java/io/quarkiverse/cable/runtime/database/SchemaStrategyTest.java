package io.quarkiverse.cable.runtime.database;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.quarkus.runtime.LaunchMode;

/** Unset, the schema strategy follows Quarkus' conventions: no production schema changes unless asked. */
class SchemaStrategyTest {

    @Test
    void productionValidatesDevAndTestUpdate() {
        assertThat(SchemaStrategy.defaultFor(LaunchMode.NORMAL)).isEqualTo(SchemaStrategy.VALIDATE);
        assertThat(SchemaStrategy.defaultFor(LaunchMode.DEVELOPMENT)).isEqualTo(SchemaStrategy.UPDATE);
        assertThat(SchemaStrategy.defaultFor(LaunchMode.TEST)).isEqualTo(SchemaStrategy.UPDATE);
    }
}
