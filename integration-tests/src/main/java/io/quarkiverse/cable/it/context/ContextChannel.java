package io.quarkiverse.cable.it.context;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;

import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.json.JsonObject;

/**
 * What an Action Cable channel's callbacks see: {@code subscribed} and the {@code who} action transmit the injected
 * identity and their request bean's number ({@link RequestProbe#seen}); {@code members} is for role {@code member}
 * only, through Quarkus Security's own {@code @RolesAllowed}.
 */
@CableChannel("ContextChannel")
public class ContextChannel implements ChannelHandler {

    @Inject
    SecurityIdentity identity;

    @Inject
    RequestProbe probe;

    @Override
    public void subscribed(ChannelSubscription subscription) {
        subscription.transmit(new JsonObject().put("subscribed", RequestProbe.seen(identity, probe)));
    }

    @CableAction
    void who(ChannelSubscription subscription, JsonObject data) {
        subscription.transmit(new JsonObject().put("who", RequestProbe.seen(identity, probe)));
    }

    @CableAction
    @RolesAllowed("member")
    void members(ChannelSubscription subscription, JsonObject data) {
        subscription.transmit(new JsonObject().put("members", identity.getPrincipal().getName()));
    }
}
