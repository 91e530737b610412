package io.quarkiverse.cable.spi;

/**
 * How an adapter builds its {@link Transport} around the engine's subscribers and counters. The core never names an
 * adapter: the recorder picks the factory ({@code DatabaseTransport.factory} or {@code MemoryTransport.factory}).
 */
@FunctionalInterface
public interface TransportFactory {

    Transport create(Subscribers subscribers, TransportCounters counters);
}
