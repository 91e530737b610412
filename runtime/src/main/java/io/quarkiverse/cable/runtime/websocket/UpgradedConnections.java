package io.quarkiverse.cable.runtime.websocket;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.runtime.internals.SharedFrameWriter;
import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.quarkus.websockets.next.UserData;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpConnection;

/**
 * Keeps, in the user data of each connection to an endpoint that streams cable channels, the HTTP connection it was
 * upgraded from: WebSockets Next gives the socket but not that connection, which {@link SharedFrameWriter} needs to
 * write whole frames. Only the upgrade sees the request ({@code HttpServerRequest.connection()}, public API).
 */
@Singleton
public class UpgradedConnections implements HttpUpgradeCheck {

    public static final UserData.TypedKey<HttpConnection> KEY = new UserData.TypedKey<>("io.quarkiverse.cable.upgraded-from");

    @Inject
    StreamingEndpoints streamingEndpoints;

    @Override
    public boolean appliesTo(String endpointId) {
        return streamingEndpoints.contains(endpointId);
    }

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        context.userData().put(KEY, context.httpRequest().connection());
        return CheckResult.permitUpgrade();
    }
}
