package io.quarkiverse.cable.runtime.core;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import io.quarkiverse.cable.CableIdentities;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.spi.Failure;

/**
 * {@link CableIdentities} on one engine: broadcasts go out on the identity's channel; disconnects are commands on the
 * control channel, which every node reads ({@link #listen}) and applies to its own sessions.
 */
final class EngineIdentities implements CableIdentities {

    private final CableEngine engine;

    EngineIdentities(CableEngine engine) {
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
     * Applies every disconnect command read from now on to {@code sessions}, in command order. It runs on the poller's
     * thread (closing a session only queues a frame and a close, it never blocks), so no mailbox can overflow and end
     * this node's reading of commands, as a slow listener's would. A command that does not decode, or a session kind
     * that fails, is counted and logged; the next command is applied all the same.
     */
    LocalSubscription listen(List<LocalSessions> sessions) {
        return engine.subscribe(IdentityChannels.CONTROL, new Delivery() {
            @Override
            public boolean offer(CableMessage message) {
                apply(message, sessions);
                return true;
            }

            @Override
            public void discard() {
            }

            @Override
            public int limit() {
                return Integer.MAX_VALUE;
            }
        });
    }

    private void apply(CableMessage message, List<LocalSessions> sessions) {
        DisconnectCommand command = DisconnectCommand.decode(message.payload());
        if (command == null) {
            engine.recordFailure(Failure.INVALID, "identity", "Cable: message " + message.id() + " on "
                    + IdentityChannels.CONTROL + " is not a disconnect command; ignored");
            return;
        }
        int closed = 0;
        for (LocalSessions kind : sessions) {
            try {
                closed += kind.disconnectIdentity(command.identifiers(), command.reconnect());
            } catch (RuntimeException e) {
                engine.failureLog().record(Failure.LISTENER, "identity",
                        "Cable: a remote disconnect failed on this node", e);
            }
        }
        engine.stats().disconnectCommandApplied(closed);
    }
}
