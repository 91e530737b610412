package io.quarkiverse.cable.test.devui;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.vertx.core.json.JsonObject;

/**
 * The channel of the Dev UI browser test's client tab: it streams devui:room and is in that room's presence set as
 * "ann", joined by the server (the connection is not identified, so the id is the channel's choice).
 */
@CableChannel("DevUiRoomChannel")
public class DevUiRoomChannel implements ChannelHandler {

    public static final String ROOM = "devui:room";

    @Override
    public void subscribed(ChannelSubscription subscription) {
        subscription.streamFrom(ROOM);
        subscription.presenceIn(ROOM);
        subscription.joinPresence("ann", new JsonObject().put("name", "Ann"));
    }
}
