package io.quarkiverse.cable.runtime.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.CablePresence;
import io.quarkiverse.cable.PresenceEvent;
import io.quarkiverse.cable.PresenceSnapshot;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/** The application's {@link CablePresence}: reads of the engine's presence sets, and this node's reader of events. */
@Singleton
public class CablePresenceBean implements CablePresence {

    /** How far an events subscriber may fall behind before its stream fails. */
    static final int EVENTS_BUFFER = 1024;

    @Inject
    @Internal
    CableEngine engine;

    @Override
    public CompletionStage<PresenceSnapshot> snapshot(String channel) {
        return CompletableFuture.supplyAsync(() -> engine.presence().snapshot(channel),
                Infrastructure.getDefaultWorkerPool());
    }

    @Override
    public CompletionStage<Integer> count(String channel) {
        return CompletableFuture.supplyAsync(() -> engine.presence().count(channel),
                Infrastructure.getDefaultWorkerPool());
    }

    @Override
    public Multi<PresenceEvent> events(String channel) {
        String problem = engine.channelProblem(channel);
        if (problem != null) {
            return Multi.createFrom().failure(new io.quarkiverse.cable.CableException.InvalidMessage(problem));
        }
        PresenceEvents events = engine.presence().events();
        return Multi.createFrom().<PresenceEvent> emitter(emitter -> {
            PresenceEvents.Listener listener = envelope -> emitter.emit(envelope.event());
            emitter.onTermination(() -> events.stopListening(channel, listener));
            events.listen(channel, listener);
        }, EVENTS_BUFFER);
    }
}
