package io.quarkiverse.cable.runtime.core;

import java.util.function.Supplier;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.arc.InjectableInstance;
import io.quarkus.arc.ManagedContext;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * The one way the cable runs application code (a channel callback, an action, an identification, a stream
 * authorization, a listener, a CDI observer of its events): inside a request context of its own, activated for the
 * call and terminated after it, with the identity the callback acts for associated, as WebSockets Next does for its
 * endpoints' callbacks. So an {@code @RequestScoped} bean injects, {@code @Inject SecurityIdentity} is that identity,
 * and {@code @RolesAllowed}, {@code @Authenticated} and {@code @PermissionsAllowed} on the application's beans have an
 * identity to check.
 * <p>
 * Code that is already inside a request context (a stream authorization asked on the HTTP request's own thread, an
 * observer fired from another callback) runs in that one: its identity is the request's, and its request-scoped beans
 * live as long as the request.
 */
public final class CallbackContext {

    /** What is looked up once per container (dev mode makes a new one on each restart; the classes stay). */
    private record Resolved(ArcContainer container, ManagedContext requests, CurrentIdentityAssociation association) {
    }

    private static volatile Resolved resolved;

    private CallbackContext() {
    }

    /**
     * Runs {@code callback} in a request context with {@code identity} (null or anonymous: none is associated, and the
     * association answers the anonymous identity if the callback asks: creating the association bean is most of what
     * a context costs, performance-work.adoc#callback-context, so a context that needs none does not pay for it).
     */
    public static void run(SecurityIdentity identity, Runnable callback) {
        call(identity, () -> {
            callback.run();
            return null;
        });
    }

    /**
     * {@link #run} without an identity, for a listener's message: while it runs, the log MDC holds the entries the
     * broadcast carried ({@link BroadcastContext}; none for null) and nothing else, its trace context is current, and
     * after it the MDC is empty and the trace context the one before, so
     * nothing of one message reaches the next one on the same thread. Only for a listener's own drain thread, whose
     * MDC belongs to no one else.
     */
    static void runCarrying(BroadcastContext carried, Runnable callback) {
        Runnable exit = BroadcastContext.enter(carried);
        try {
            run(null, callback);
        } finally {
            exit.run();
        }
    }

    /** {@link #run}, with the callback's result. What the callback throws goes to the caller, as it is. */
    public static <T> T call(SecurityIdentity identity, Supplier<T> callback) {
        Resolved here = resolve();
        if (here == null || here.requests().isActive()) {
            // No container (the engine driven alone, in the runtime's unit tests), or already in a request context.
            return callback.get();
        }
        here.requests().activate();
        try {
            if (identity != null && !identity.isAnonymous() && here.association() != null) {
                // A client proxy of a request-scoped bean: this sets the identity of the context just activated.
                here.association().setIdentity(identity);
            }
            return callback.get();
        } finally {
            here.requests().terminate();
        }
    }

    private static Resolved resolve() {
        ArcContainer container = Arc.container();
        if (container == null) {
            return null;
        }
        Resolved current = resolved;
        if (current == null || current.container() != container) {
            // The application's association bean (WebSockets Next's request-scoped one, or Quarkus Security's); without
            // one there is nowhere to put an identity.
            InjectableInstance<CurrentIdentityAssociation> association = container
                    .select(CurrentIdentityAssociation.class);
            current = new Resolved(container, container.requestContext(),
                    association.isResolvable() ? association.get() : null);
            resolved = current;
        }
        return current;
    }
}
