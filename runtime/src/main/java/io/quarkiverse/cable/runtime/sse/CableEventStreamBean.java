package io.quarkiverse.cable.runtime.sse;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.sse.OutboundSseEvent;

import io.quarkiverse.cable.CableEventStream;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.Internal;
import io.smallrye.mutiny.Multi;

/** The application's {@link CableEventStream}; registered only when a JAX-RS implementation is present. */
@Singleton
public class CableEventStreamBean implements CableEventStream {

    @Inject
    @Internal
    CableEngine engine;

    private SseSettings settings;
    private StreamsPerClient clients;

    /** Reads the settings once; {@code CableConfigCheck} validated them when the cable was built. */
    @Inject
    void configure(CableRuntimeConfig config) {
        settings = SseSettings.from(config);
        clients = new StreamsPerClient(config.sse().maxStreamsPerClient());
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
