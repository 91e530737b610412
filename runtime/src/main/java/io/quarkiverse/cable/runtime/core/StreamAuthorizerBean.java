package io.quarkiverse.cable.runtime.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.StreamAuthorization;
import io.quarkiverse.cable.StreamRequest;
import io.quarkiverse.cable.spi.CableThreads;
import io.quarkiverse.cable.spi.Failure;

/**
 * The {@link StreamAuthorizer}: asks the application's {@link StreamAuthorization} bean, if it declared one. The bean
 * may block, so {@link #decide} runs it on a virtual thread of its own, never on the event loop that asked.
 */
@Singleton
class StreamAuthorizerBean implements StreamAuthorizer {

    private static final Logger LOG = Logger.getLogger(StreamAuthorizerBean.class);

    @Inject
    Instance<StreamAuthorization> authorization;

    @Inject
    @Internal
    CableEngine engine;

    @Override
    public boolean active() {
        return authorization.isResolvable();
    }

    @Override
    public CompletionStage<Boolean> decide(StreamRequest request) {
        if (!active()) {
            return CompletableFuture.completedFuture(true);
        }
        CompletableFuture<Boolean> decision = new CompletableFuture<>();
        CableThreads.startVirtual("cable-stream-authorization", () -> decision.complete(decideHere(request)));
        return decision;
    }

    @Override
    public boolean decideNow(StreamRequest request) {
        return !active() || decideHere(request);
    }

    private boolean decideHere(StreamRequest request) {
        try {
            // In a request context with the request's identity: the bean may inject SecurityIdentity, request-scoped
            // beans, or be guarded by @RolesAllowed (a refusal by its interceptor refuses the stream, as a failure).
            boolean allowed = CallbackContext.call(request.identity(), () -> authorization.get().allows(request));
            if (!allowed) {
                // A refusal is the application's ordinary answer, not a failure; debug only, so clients cannot fill
                // the log with their attempts.
                LOG.debugf("StreamAuthorization refused %s stream of '%s' on %s", request.front(), request.channel(),
                        request.path());
            }
            return allowed;
        } catch (RuntimeException | Error e) {
            engine.recordFailure(Failure.LISTENER, "authorization",
                    "StreamAuthorization failed for " + request.front() + " stream of '" + request.channel()
                            + "', refused: " + e);
            return false;
        }
    }
}
