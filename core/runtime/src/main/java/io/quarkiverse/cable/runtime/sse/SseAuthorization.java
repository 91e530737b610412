package io.quarkiverse.cable.runtime.sse;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.ws.rs.ForbiddenException;

import io.quarkiverse.cable.StreamRequest;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkiverse.cable.runtime.frontend.CredentialsExpiry;
import io.quarkiverse.cable.runtime.frontend.StreamAuthorizer;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.ext.web.RoutingContext;

/**
 * Asks the application's {@link io.quarkiverse.cable.StreamAuthorization} about an SSE stream before it starts: a
 * refusal is a {@link ForbiddenException} thrown at {@code CableEventStream.stream}, which Quarkus REST answers with
 * 403 before any event.
 */
final class SseAuthorization {

    private SseAuthorization() {
    }

    /** The authorizer when the application declared a bean, else null (every stream starts). */
    static StreamAuthorizer active() {
        ArcContainer container = Arc.container();
        if (container == null) {
            return null;
        }
        try (InstanceHandle<StreamAuthorizer> handle = container.instance(StreamAuthorizer.class)) {
            return handle.isAvailable() && handle.get().active() ? handle.get() : null;
        }
    }

    /**
     * Returns when the stream may start, throws {@link ForbiddenException} when the bean refuses. Runs the bean on the
     * calling thread, because Quarkus REST sends an SSE response's headers as soon as the endpoint returns its
     * stream: a refusal decided later could not be a 403. An endpoint whose bean blocks runs on a virtual thread
     * ({@code @RunOnVirtualThread}) or a worker ({@code @Blocking}); on the event loop the bean must not block, and
     * an identity not resolved yet (lazy authentication) counts as anonymous there.
     */
    static void check(StreamAuthorizer authorizer, String channel) {
        RoutingContext request = currentRequest();
        String path = request == null ? "" : request.request().path();
        Map<String, List<String>> headers = request == null ? Map.of() : headers(request);
        SecurityIdentity identity;
        try {
            identity = identity(request);
        } catch (RuntimeException e) {
            // An identity that cannot be resolved authorizes nothing.
            throw new ForbiddenException();
        }
        if (!authorizer.decideNow(new StreamRequest(channel, StreamRequest.Front.SSE,
                StreamAuthorizer.orAnonymous(identity), path, Map.of(), headers))) {
            throw new ForbiddenException();
        }
    }

    /**
     * Refuses (403) another identity's reserved channel, the control, whisper and presence channels: the request's identity is
     * {@code user=<principal>} when it is authenticated, as for WebSockets Next connections.
     */
    static void checkReserved(String channel) {
        if (!channel.startsWith(IdentityChannels.PREFIX) && !IdentityChannels.isCableOwned(channel)) {
            return; // no identity needed: not a reserved channel
        }
        SecurityIdentity identity;
        try {
            identity = identity(currentRequest());
        } catch (RuntimeException e) {
            throw new ForbiddenException();
        }
        Map<String, String> own = identity == null || identity.isAnonymous() ? Map.of()
                : Map.of("user", identity.getPrincipal().getName());
        if (IdentityChannels.refused(channel, own)) {
            throw new ForbiddenException();
        }
    }

    /**
     * When the current request's credentials expire (null: never, or no identity known yet: with lazy authentication
     * on an event loop the identity cannot be awaited here).
     */
    static Instant expiry() {
        try {
            return CredentialsExpiry.of(identity(currentRequest()));
        } catch (RuntimeException e) {
            return null; // an identity that cannot be resolved has no expiry to keep; authorization refuses it
        }
    }

    static SecurityIdentity identity(RoutingContext request) {
        if (request == null) {
            return null;
        }
        if (request.user() instanceof QuarkusHttpUser user) {
            return user.getSecurityIdentity();
        }
        Uni<SecurityIdentity> deferred = request.get(QuarkusHttpUser.DEFERRED_IDENTITY_KEY);
        if (deferred == null || Context.isOnEventLoopThread()) {
            return null;
        }
        return deferred.await().atMost(Duration.ofSeconds(30));
    }

    static RoutingContext currentRequest() {
        ArcContainer container = Arc.container();
        if (container == null || !container.requestContext().isActive()) {
            return null;
        }
        try (InstanceHandle<CurrentVertxRequest> handle = container.instance(CurrentVertxRequest.class)) {
            return handle.isAvailable() ? handle.get().getCurrent() : null;
        }
    }

    private static Map<String, List<String>> headers(RoutingContext request) {
        Map<String, List<String>> headers = new HashMap<>();
        request.request().headers().forEach(entry -> headers
                .computeIfAbsent(entry.getKey().toLowerCase(Locale.ROOT), key -> new ArrayList<>())
                .add(entry.getValue()));
        return Map.copyOf(headers);
    }
}
