package io.quarkiverse.cable.deployment;

import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkus.builder.item.SimpleBuildItem;
import io.quarkus.runtime.RuntimeValue;

/** The cable created at runtime init, to be started once the datasources are ready. */
public final class CableEngineBuildItem extends SimpleBuildItem {

    private final RuntimeValue<CableEngine> engine;

    CableEngineBuildItem(RuntimeValue<CableEngine> engine) {
        this.engine = engine;
    }

    RuntimeValue<CableEngine> engine() {
        return engine;
    }
}
