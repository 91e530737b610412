package io.quarkiverse.cable.runtime.frontend;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.StreamAuthorization;
import io.quarkiverse.cable.StreamRequest;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CallbackContext;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.CableThreads;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * Asks the application's {@link StreamAuthorization} bean, if it declared one, whether a stream may start; a bean that
 * throws refuses. Every front end injects it. The bean may block, so {@link #decide} runs it on a virtual thread of its
 * own, never on the event loop that asked.
 */
@Singleton
public class StreamAuthorizer {

    private static final Logger LOG = Logger.getLogger(StreamAuthorizer.class);

    @Inject
    Instance<StreamAuthorization> authorization;

    @Inject
    @Internal
    CableEngine engine;

    /** The identity for a request: the one Quarkus Security made, or the anonymous one when there is none. */
    public static SecurityIdentity orAnonymous(SecurityIdentity identity) {
        return identity == null ? AnonymousIdentity.INSTANCE : identity;
    }

    /** False without an application bean: then every stream starts, as the docs say, and nothing is asked. */
    public boolean active() {
        return authorization.isResolvable();
    }

    /**
     * Completes with the bean's decision, true without a bean; never fails (a failing bean refuses). The bean may
     * block, so it never runs on the thread that asked.
     */
    public CompletionStage<Boolean> decide(StreamRequest request) {
        if (!active()) {
            return CompletableFuture.completedFuture(true);
        }
        CompletableFuture<Boolean> decision = new CompletableFuture<>();
        CableThreads.startVirtual("cable-stream-authorization", () -> decision.complete(decideHere(request)));
        return decision;
    }

    /**
     * The bean's decision on the calling thread, true without a bean: for SSE, whose 403 must be decided before the
     * endpoint returns its stream (Quarkus REST sends the headers as soon as it has it).
     */
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
