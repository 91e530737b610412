package io.quarkiverse.cable.runtime.core;

/**
 * How an adapter builds its {@link Transport} around the engine's subscriber map and counters. The core never names an
 * adapter: the recorder picks the factory ({@code DatabaseTransport.factory} or {@code MemoryTransport.factory}).
 */
@FunctionalInterface
public interface TransportFactory {

    Transport create(SubscriberMap subscribers, CableStats stats);
}
