package io.quarkiverse.cable.runtime.websocket;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.StreamRequest;
import io.quarkiverse.cable.runtime.frontend.StreamAuthorizer;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Authorizes the {@code @StreamFrom} streams of a WebSocket while it is upgraded, when the application declared a
 * {@link io.quarkiverse.cable.StreamAuthorization}: the identity is resolved (WebSockets Next's own security checks,
 * {@code @RolesAllowed} or {@code @Authenticated} on the endpoint, have a higher priority and already refused an
 * unauthenticated upgrade), each resolved channel is asked for, and the decision is kept in the connection's user
 * data. The upgrade itself is always permitted: the connection listener then starts the streams at once, before any
 * broadcast can slip by, or closes a refused connection with 1008. Deciding here, not at open, is what lets a blocking
 * bean run without delaying an allowed stream's start past the endpoint's {@code @OnOpen}.
 */
@Singleton
public class StreamAuthorizationUpgradeCheck implements HttpUpgradeCheck {

    @Inject
    StreamAuthorizer authorizer;

    @Inject
    StreamingEndpoints endpoints;

    @Override
    public boolean appliesTo(String endpointId) {
        // With SmallRye JWT the identity is kept even without a StreamAuthorization bean: its token's exp closes the
        // connection (ExpiringConnections), which WebSockets Next does only for identities with the attribute.
        return (authorizer.active() || endpoints.keepsIdentities()) && endpoints.contains(endpointId);
    }

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        Map<String, String> pathParams = new LinkedHashMap<>();
        for (String name : endpoints.pathParameters(context.endpointId())) {
            String value = context.pathParam(name);
            if (value != null) {
                pathParams.put(name, value);
            }
        }
        context.userData().put(UpgradeIdentity.PATH_PARAMS, Map.copyOf(pathParams));
        Context caller = Vertx.currentContext();
        Uni<SecurityIdentity> identity = context.securityIdentity() == null ? Uni.createFrom().nullItem()
                : context.securityIdentity();
        Uni<CheckResult> checked = identity
                .onItem().transformToUni(resolved -> {
                    SecurityIdentity known = StreamAuthorizer.orAnonymous(resolved);
                    context.userData().put(UpgradeIdentity.IDENTITY, known);
                    return Uni.createFrom().completionStage(authorizer.active()
                            ? decideStreamFrom(context, known, pathParams)
                            : CompletableFuture.completedFuture(true));
                })
                // An identity that cannot be resolved authorizes nothing; WebSockets Next's own checks answer for it.
                .onFailure().recoverWithItem(false)
                .map(allowed -> {
                    context.userData().put(UpgradeIdentity.STREAM_FROM_ALLOWED, allowed);
                    return CheckResult.permitUpgradeSync();
                });
        // The bean answered on its virtual thread: WebSockets Next continues the upgrade on the request's context.
        return caller == null ? checked : checked.emitOn(command -> caller.runOnContext(ignored -> command.run()));
    }

    private CompletionStage<Boolean> decideStreamFrom(HttpUpgradeContext context, SecurityIdentity identity,
            Map<String, String> pathParams) {
        List<String> channels = new ArrayList<>();
        for (String template : endpoints.templates(context.endpointId())) {
            if (ChannelTemplate.unsafeParameter(template, context::pathParam) != null) {
                // Refused at open whatever the application says; its bean never sees a channel it did not mean.
                return CompletableFuture.completedFuture(false);
            }
            channels.add(ChannelTemplate.resolve(template, context::pathParam));
        }
        Map<String, List<String>> headers = headers(context);
        CompletionStage<Boolean> all = CompletableFuture.completedFuture(true);
        for (String channel : channels) {
            StreamRequest request = new StreamRequest(channel, StreamRequest.Front.STREAM_FROM, identity,
                    context.httpRequest().path(), pathParams, headers);
            all = all.thenCompose(allowed -> allowed ? authorizer.decide(request)
                    : CompletableFuture.completedFuture(false));
        }
        return all;
    }

    private static Map<String, List<String>> headers(HttpUpgradeContext context) {
        Map<String, List<String>> headers = new HashMap<>();
        context.httpRequest().headers().forEach(entry -> headers
                .computeIfAbsent(entry.getKey().toLowerCase(Locale.ROOT), key -> new ArrayList<>())
                .add(entry.getValue()));
        return Map.copyOf(headers);
    }
}
