package io.quarkiverse.cable.examples;

import jakarta.inject.Inject;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelParam;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.OnSubscribe;
import io.quarkiverse.cable.OnUnsubscribe;
import io.quarkiverse.cable.SubscriptionRejected;
import io.vertx.core.json.JsonObject;

// tag::chat-channel[]
@CableChannel("ChatChannel")
public class ChatChannel {

    @Inject
    Cable cable;

    @OnSubscribe                 // consumer.subscriptions.create({channel: "ChatChannel", room: "lobby"})
    void join(@ChannelParam String room, ChannelSubscription subscription) {   // no room: rejected, "missing param 'room'"
        if (room.isBlank()) {
            throw new SubscriptionRejected("empty room");         // reject_subscription, "reason":"empty room"
        }
        subscription.streamFrom("chat:" + room);                   // cable.broadcast("chat:lobby", json) reaches it
    }

    @OnUnsubscribe                                                   // unsubscribed, or the connection closed
    void leave(@ChannelParam String room, ChannelSubscription subscription) {
        cable.excluding(subscription.sessionId()).broadcast("chat:" + room, new JsonObject().put("left", user(subscription)));
    }

    @CableAction                                                     // subscription.perform("speak", {text: "hi"})
    void speak(@ChannelParam String room, ChannelSubscription subscription, JsonObject data) {
        cable.broadcast("chat:" + room,
                new JsonObject().put("text", data.getString("text")).put("user", user(subscription)).encode());
    }

    // tag::to-others[]
    @CableAction                                                     // subscription.perform("typing", {})
    void typing(@ChannelParam String room, ChannelSubscription subscription) {
        cable.excluding(subscription.sessionId())                    // everyone in the room but this client
                .broadcast("chat:" + room, new JsonObject().put("typing", user(subscription)));
    }
    // end::to-others[]

    @CableAction
    void echo(ChannelSubscription subscription, JsonObject data) {
        subscription.transmit(data);                                 // to this subscription only
    }

    private static String user(ChannelSubscription subscription) {
        return subscription.connectionIdentifiers().getOrDefault("user", "anonymous");
    }
}
// end::chat-channel[]
