package io.quarkiverse.cable.runtime.core;

import java.util.concurrent.CompletionStage;

import io.quarkiverse.cable.StreamAuthorization;
import io.quarkiverse.cable.StreamRequest;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * Asks the application's {@link StreamAuthorization}, if it declared one, whether a stream may start; a bean that
 * throws refuses. The front ends inject it.
 */
public interface StreamAuthorizer {

    /** The identity for a request: the one Quarkus Security made, or the anonymous one when there is none. */
    static SecurityIdentity orAnonymous(SecurityIdentity identity) {
        return identity == null ? AnonymousIdentity.INSTANCE : identity;
    }

    /** False without an application bean: then every stream starts, as the docs say, and nothing is asked. */
    boolean active();

    /**
     * Completes with the bean's decision, true without a bean; never fails (a failing bean refuses). The bean may
     * block, so it never runs on the thread that asked.
     */
    CompletionStage<Boolean> decide(StreamRequest request);

    /**
     * The bean's decision on the calling thread, true without a bean: for SSE, whose 403 must be decided before the
     * endpoint returns its stream (Quarkus REST sends the headers as soon as it has it).
     */
    boolean decideNow(StreamRequest request);
}
