package io.quarkiverse.cable.runtime;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.CableIdentities;
import io.quarkiverse.cable.CableIdentityEvent;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.core.LocalSessions;
import io.quarkus.arc.All;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * The application's {@link CableIdentities}; at startup it starts reading the disconnect commands of every node and
 * applies them to this node's Action Cable and WebSockets Next connections.
 */
@Singleton
public class CableIdentitiesBean implements CableIdentities {

    @Inject
    @Internal
    CableEngine engine;

    /** Each WebSocket front end's sessions on this node. */
    @Inject
    @All
    List<LocalSessions> sessions;

    @Inject
    jakarta.enterprise.event.Event<CableIdentityEvent> identityEvents;

    private CableIdentities identities;
    private Subscription commands;

    void start(@Observes StartupEvent startup) {
        identities = engine.identities();
        commands = engine.applyDisconnects(sessions);
        if (engine.presence().settings().identityEvents()) {
            engine.presence().onChange(this::identityChanged);
        }
    }

    /** A change this node made to the identities' presence set: the identity's first session or its last. */
    private void identityChanged(String channel, String presenceId, boolean joined) {
        if (!IdentityChannels.IDENTITIES_PRESENT.equals(channel)) {
            return;
        }
        Map<String, String> identifiers = IdentityChannels.identifiersOf(presenceId);
        if (identifiers != null) {
            // Its observers run in a request context: the one of the callback that made the change, or one of their
            // own (no identity) when a background task of the cable made it (a presence sweep, a TTL).
            io.quarkiverse.cable.runtime.core.CallbackContext.run(null,
                    () -> identityEvents.fire(joined ? new CableIdentityEvent.Online(identifiers)
                            : new CableIdentityEvent.Offline(identifiers)));
        }
    }

    void stop(@Observes ShutdownEvent shutdown) {
        if (commands != null) {
            commands.close();
        }
    }

    @Override
    public CompletionStage<Void> broadcast(Map<String, String> identifiers, Object payload) {
        return identities().broadcast(identifiers, payload);
    }

    @Override
    public CompletionStage<Void> disconnect(Map<String, String> identifiers, boolean reconnect) {
        return identities().disconnect(identifiers, reconnect);
    }

    private CableIdentities identities() {
        CableIdentities current = identities;
        return current != null ? current : engine.identities();
    }
}
