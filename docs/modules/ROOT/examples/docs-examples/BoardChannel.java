package io.quarkiverse.cable.examples;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;

import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.json.JsonObject;

// tag::board-channel[]
@CableChannel("BoardChannel")
public class BoardChannel implements ChannelHandler {

    @Inject
    SecurityIdentity identity;                                      // the connection's, in every callback

    @Override
    public void subscribed(ChannelSubscription subscription) {
        String user = identity.isAnonymous() ? "anonymous" : identity.getPrincipal().getName();
        subscription.streamFrom("board:" + user);
    }

    @CableAction
    @RolesAllowed("editor")                                         // others get {"error":"forbidden","action":"clear"}
    void clear(ChannelSubscription subscription, JsonObject data) {
        subscription.transmit(new JsonObject().put("cleared", true));
    }
}
// end::board-channel[]
