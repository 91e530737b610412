package io.quarkiverse.cable.runtime.actioncable;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.runtime.frontend.RequestOrigins;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.quarkus.websockets.next.UserData;
import io.smallrye.mutiny.Uni;

/**
 * The Action Cable endpoint's upgrade: refused with 404 when the endpoint is off
 * ({@code quarkus.cable.action-cable.enabled}, read at run time while the path is fixed at build time), with 403 for
 * a page of another origin ({@code quarkus.cable.origin}); otherwise the request's identity, as WebSockets Next hands
 * it to upgrade checks, is kept in the connection's user data for the identification that follows the upgrade.
 */
@Singleton
public class ActionCableUpgradeCheck implements HttpUpgradeCheck {

    /** The identity as the upgrade saw it; taken out of the user data when the connection opens. */
    @SuppressWarnings({ "unchecked", "rawtypes" })
    static final UserData.TypedKey<Uni<SecurityIdentity>> IDENTITY = new UserData.TypedKey(
            "io.quarkiverse.cable.action-cable.identity");
    private static final int NOT_FOUND = 404;

    @Inject
    ActionCableConfig config;

    @Inject
    RequestOrigins origins;

    @Override
    public boolean appliesTo(String endpointId) {
        return ActionCableEndpoint.ENDPOINT_ID.equals(endpointId);
    }

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        if (!config.enabled()) {
            return CheckResult.rejectUpgrade(NOT_FOUND);
        }
        if (origins.refusal(context.httpRequest(), "the Action Cable endpoint " + context.httpRequest().path()) != null) {
            return CheckResult.rejectUpgrade(RequestOrigins.FORBIDDEN);
        }
        if (context.securityIdentity() != null) {
            context.userData().put(IDENTITY, context.securityIdentity());
        }
        return CheckResult.permitUpgrade();
    }
}
