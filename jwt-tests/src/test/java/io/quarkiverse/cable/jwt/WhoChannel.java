package io.quarkiverse.cable.jwt;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.vertx.core.json.JsonObject;

/** Tells its subscriber who the cable identified the connection as. */
@CableChannel("WhoChannel")
public class WhoChannel implements ChannelHandler {

    @Override
    public void subscribed(ChannelSubscription subscription) {
        subscription.transmit(new JsonObject().put("user", subscription.connectionIdentifiers().get("user")));
    }
}
