package io.quarkiverse.cable.deployment;

import io.quarkiverse.cable.deployment.CableBuildTimeConfig.Adapter;
import io.quarkiverse.cable.spi.TransportFactory;
import io.quarkus.builder.item.SimpleBuildItem;
import io.quarkus.runtime.RuntimeValue;

/**
 * The transport an adapter module offers for this application (the database adapter: when its datasource exists or
 * {@code quarkus.cable.adapter=database}). Absent, the core runs on its memory adapter.
 */
public final class CableTransportBuildItem extends SimpleBuildItem {

    private final Adapter adapter;
    private final RuntimeValue<TransportFactory> factory;

    public CableTransportBuildItem(Adapter adapter, RuntimeValue<TransportFactory> factory) {
        this.adapter = adapter;
        this.factory = factory;
    }

    public Adapter adapter() {
        return adapter;
    }

    RuntimeValue<TransportFactory> factory() {
        return factory;
    }
}
