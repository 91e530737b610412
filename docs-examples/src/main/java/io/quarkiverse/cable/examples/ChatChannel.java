package io.quarkiverse.cable.examples;

import jakarta.inject.Inject;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.vertx.core.json.JsonObject;

// tag::chat-channel[]
@CableChannel("ChatChannel")
public class ChatChannel implements ChannelHandler {

    @Inject
    Cable cable;

    @Override
    public void subscribed(ChannelSubscription subscription) {   // consumer.subscriptions.create({channel: "ChatChannel", room: "lobby"})
        String room = subscription.params().getString("room");
        if (room == null) {
            subscription.reject();                                  // reject_subscription
            return;
        }
        subscription.streamFrom("chat:" + room);                   // cable.broadcast("chat:lobby", json) reaches it
    }

    @CableAction                                                     // subscription.perform("speak", {text: "hi"})
    void speak(ChannelSubscription subscription, JsonObject data) {
        String user = subscription.connectionIdentifiers().getOrDefault("user", "anonymous");
        cable.broadcast("chat:" + subscription.params().getString("room"),
                new JsonObject().put("text", data.getString("text")).put("user", user).encode());
    }

    // tag::to-others[]
    @CableAction                                                     // subscription.perform("typing", {})
    void typing(ChannelSubscription subscription, JsonObject data) {
        String user = subscription.connectionIdentifiers().getOrDefault("user", "anonymous");
        cable.excluding(subscription.sessionId())                    // everyone in the room but this client
                .broadcast("chat:" + subscription.params().getString("room"), new JsonObject().put("typing", user));
    }
    // end::to-others[]

    @CableAction
    void echo(ChannelSubscription subscription, JsonObject data) {
        subscription.transmit(data);                                 // to this subscription only
    }
}
// end::chat-channel[]
