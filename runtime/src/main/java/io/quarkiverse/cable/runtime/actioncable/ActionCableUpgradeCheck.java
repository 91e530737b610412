package io.quarkiverse.cable.runtime.actioncable;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.RequestOrigins;
import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.quarkus.websockets.next.UserData;
import io.smallrye.mutiny.Uni;

/**
 * The Action Cable endpoint's upgrade: refused with 404 when the endpoint is off
 * ({@code quarkus.cable.action-cable.enabled}, read at run time while the path is fixed at build time), with 403 for
 * a page of another origin ({@code quarkus.cable.origin}); otherwise what identification needs of the request is
 * kept in the connection's user data, since only the upgrade sees the request and identification runs after it.
 */
@Singleton
class ActionCableUpgradeCheck implements HttpUpgradeCheck {

    static final UserData.TypedKey<ConnectionIdentification.Upgrade> UPGRADE = new UserData.TypedKey<>(
            "io.quarkiverse.cable.action-cable.upgrade");
    private static final int NOT_FOUND = 404;

    @Inject
    CableRuntimeConfig config;

    @Inject
    RequestOrigins origins;

    @Override
    public boolean appliesTo(String endpointId) {
        return ActionCableServer.ENDPOINT_ID.equals(endpointId);
    }

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        if (!config.actionCable().enabled()) {
            return CheckResult.rejectUpgrade(NOT_FOUND);
        }
        if (origins.refusal(context.httpRequest(), "the Action Cable endpoint " + context.httpRequest().path()) != null) {
            return CheckResult.rejectUpgrade(RequestOrigins.FORBIDDEN);
        }
        context.userData().put(UPGRADE, ConnectionIdentification.upgrade(context.httpRequest(), context.securityIdentity()));
        return CheckResult.permitUpgrade();
    }
}
