package io.quarkiverse.cable.runtime.core;

import io.quarkiverse.cable.spi.Subscribers;
import io.quarkiverse.cable.spi.Transport;

/**
 * How an adapter builds its {@link Transport} around the engine's subscriber map and counters. The core never names an
 * adapter: the recorder picks the factory ({@code DatabaseTransport.factory} or {@code MemoryTransport.factory}).
 */
@FunctionalInterface
public interface TransportFactory {

    Transport create(Subscribers subscribers, CableStats stats);
}
