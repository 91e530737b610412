package io.quarkiverse.cable.runtime.internals;

import jakarta.inject.Singleton;

import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.quarkus.websockets.next.UserData;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpConnection;

/**
 * Keeps, in the user data of each WebSockets Next connection, the HTTP connection it was upgraded from: WebSockets
 * Next gives the socket but not that connection, which {@link SharedFrameWriter} needs to write whole frames. Only the
 * upgrade sees the request ({@code HttpServerRequest.connection()}, public API). It applies to every endpoint: which
 * of them stream the cable is the front ends' knowledge, and one reference in the user data costs less than asking.
 */
@Singleton
public class UpgradedConnections implements HttpUpgradeCheck {

    static final UserData.TypedKey<HttpConnection> KEY = new UserData.TypedKey<>("io.quarkiverse.cable.upgraded-from");

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        context.userData().put(KEY, context.httpRequest().connection());
        return CheckResult.permitUpgrade();
    }
}
