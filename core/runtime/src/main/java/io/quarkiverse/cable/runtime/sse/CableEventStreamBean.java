package io.quarkiverse.cable.runtime.sse;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.sse.OutboundSseEvent;

import io.quarkiverse.cable.CableEventStream;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;

/** The application's {@link CableEventStream}; registered only when a JAX-RS implementation is present. */
@Singleton
public class CableEventStreamBean implements CableEventStream {

    @Inject
    @Internal
    CableEngine engine;

    private SseSettings settings;
    private StreamsPerClient clients;

    /** Reads and validates the settings once. */
    @Inject
    void configure(CableRuntimeConfig config, CableSseConfig sse) {
        settings = SseSettings.from(sse, config);
        clients = new StreamsPerClient(sse.maxStreamsPerClient());
    }

    /** Created at startup, not at the first stream: an invalid setting fails startup naming its property. */
    void validateAtStartup(@Observes StartupEvent startup) {
    }

    @Override
    public Multi<OutboundSseEvent> stream(String channel, String lastEventId) {
        return EventStreams.stream(engine, settings, clients, channel, lastEventId, null);
    }

    @Override
    public Multi<OutboundSseEvent> streamWithPresence(String channel, String lastEventId, String presenceId,
            Object info) {
        return EventStreams.stream(engine, settings, clients, channel, lastEventId,
                SsePresence.member(engine, presenceId, info));
    }
}
