package io.quarkiverse.cable.it.declarative;

import jakarta.annotation.security.RolesAllowed;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.OnSubscribe;

/** A channel for role {@code member} only, through Quarkus Security's own {@code @RolesAllowed} on its subscription. */
@CableChannel("MembersChannel")
public class MembersChannel {

    @OnSubscribe
    @RolesAllowed("member")
    void join(ChannelSubscription subscription) {
        subscription.streamFrom("members");
    }
}
