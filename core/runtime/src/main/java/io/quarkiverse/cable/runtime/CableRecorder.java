package io.quarkiverse.cable.runtime;

import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.memory.MemoryTransport;
import io.quarkiverse.cable.spi.TransportFactory;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.ShutdownContext;
import io.quarkus.runtime.annotations.Recorder;

/**
 * Builds the cable at runtime init on the adapter chosen at build time, and starts and stops it with the application.
 * The core names only its own adapter (memory); another adapter's module records its {@link TransportFactory}.
 */
@Recorder
public class CableRecorder {

    private final RuntimeValue<CableRuntimeConfig> config;

    public CableRecorder(RuntimeValue<CableRuntimeConfig> config) {
        this.config = config;
    }

    /** The configuration is validated here, once; an invalid value fails startup naming its property. */
    public RuntimeValue<CableEngine> createCable(RuntimeValue<TransportFactory> transport) {
        return new RuntimeValue<>(CableEngine.create(config.getValue(), transport.getValue()));
    }

    public RuntimeValue<CableEngine> createMemoryCable() {
        return new RuntimeValue<>(CableEngine.create(config.getValue(), MemoryTransport.factory(config.getValue())));
    }

    /** {@code transactional}: the application has a transaction manager and quarkus.cable.transactional is true. */
    public void start(RuntimeValue<CableEngine> cable, ShutdownContext shutdown, boolean transactional) {
        CableEngine engine = cable.getValue();
        engine.start();
        if (transactional) {
            CableRuntimeConfig.Writer writer = config.getValue().writer();
            engine.joinTransactions(writer.maxTransactionBroadcasts().orElse(writer.queueCapacity()));
        }
        shutdown.addShutdownTask(engine::stop);
    }
}
