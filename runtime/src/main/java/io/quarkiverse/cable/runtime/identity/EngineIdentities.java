package io.quarkiverse.cable.runtime.identity;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableIdentities;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.runtime.CableEngine;
import io.quarkiverse.cable.runtime.CableStats;

/**
 * {@link CableIdentities} on one engine: broadcasts go out on the identity's channel; disconnects are commands on the
 * control channel, which every node reads ({@link #listen}) and applies to its own sessions.
 */
public final class EngineIdentities implements CableIdentities {

    private final CableEngine engine;

    public EngineIdentities(CableEngine engine) {
        this.engine = engine;
    }

    @Override
    public CompletionStage<Void> broadcast(Map<String, String> identifiers, Object payload) {
        return engine.broadcast(IdentityChannels.of(identifiers), payload);
    }

    @Override
    public CompletionStage<Void> disconnect(Map<String, String> identifiers, boolean reconnect) {
        IdentityChannels.of(identifiers); // the same check as a broadcast's: no anonymous, no null identifier
        return engine.broadcastCommand(IdentityChannels.CONTROL,
                new DisconnectCommand(Map.copyOf(identifiers), reconnect).encode());
    }

    /**
     * Applies every disconnect command read from now on to {@code sessions}. The listener runs on a virtual thread, in
     * command order; a command that does not decode is counted and logged, never applied.
     */
    public Subscription listen(List<LocalSessions> sessions) {
        return engine.subscribe(IdentityChannels.CONTROL, message -> {
            DisconnectCommand command = DisconnectCommand.decode(message.payload());
            if (command == null) {
                engine.recordFailure(CableStats.Failure.INVALID, "identity",
                        "Cable: message " + message.id() + " on " + IdentityChannels.CONTROL
                                + " is not a disconnect command; ignored");
                return;
            }
            for (LocalSessions kind : sessions) {
                kind.disconnect(command.identifiers(), command.reconnect());
            }
        });
    }

    /** Why the application's own broadcast on {@code channel} is refused, or null. */
    public static CableException refusal(String channel) {
        return IdentityChannels.isControl(channel)
                ? new CableException.InvalidMessage("Cable channel '" + channel + "' is reserved for the cable's own"
                        + " commands; use CableIdentities.disconnect")
                : null;
    }
}
