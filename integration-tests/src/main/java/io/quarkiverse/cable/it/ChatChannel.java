package io.quarkiverse.cable.it;

import jakarta.inject.Inject;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.vertx.core.json.JsonObject;

/**
 * The demo's chat: {@code {"channel":"ChatChannel","room":"lobby"}} streams {@code chat:lobby}; {@code speak}
 * broadcasts a message to the room, {@code echo} answers only the subscriber; clients may whisper to the room, except
 * in room {@code nowhisper}, and join the room's presence set as their user, except in room {@code nopresence}
 * ({@code here} joins it for them); in rooms named {@code open-*} under any id they choose. Room {@code forbidden} is
 * rejected.
 */
@CableChannel("ChatChannel")
public class ChatChannel implements ChannelHandler {

    @Inject
    Cable cable;

    @Override
    public void subscribed(ChannelSubscription subscription) {
        String room = room(subscription);
        if ("forbidden".equals(room)) {
            subscription.reject();
            return;
        }
        subscription.streamFrom("chat:" + room);
        if (!"nowhisper".equals(room)) {
            // Typing indicators: the client's whispers go to the room's other subscribers, never stored.
            subscription.whisperTo("chat:" + room);
        }
        if (!"nopresence".equals(room)) {
            // Who is in the room: clients join with presence.join(id, info) as their own user (the server refuses any
            // other id), or the here action joins for them.
            subscription.presenceIn("chat:" + room);
            if (room.startsWith("open-")) {
                // Open rooms (a public lobby): the clients' presence ids are their own choice, and say nothing of who
                // they are.
                subscription.allowClientChosenPresenceIds();
            }
        }
    }

    /** Joins the room's presence set on the server, as the connection's user (AnyCable's join_presence). */
    @CableAction
    void here(ChannelSubscription subscription, JsonObject data) {
        String user = subscription.connectionPresenceId();
        subscription.joinPresence(user, new JsonObject().put("name", user));
    }

    /**
     * Typing indicators are objects: the server stamps each with its sender ({@code from}, the default of
     * {@link ChannelHandler#whispered}), so a client cannot whisper as someone else; anything else is refused, since
     * a bare string would carry no sender.
     */
    @Override
    public Object whispered(ChannelSubscription sender, Object data) {
        return data instanceof JsonObject ? ChannelHandler.super.whispered(sender, data) : null;
    }

    @CableAction
    void speak(ChannelSubscription subscription, JsonObject data) {
        JsonObject message = new JsonObject().put("text", data.getString("text"))
                .put("user", subscription.connectionIdentifiers().getOrDefault("user", "anonymous"));
        cable.broadcast("chat:" + room(subscription), message.encode()).toCompletableFuture().join();
    }

    @CableAction
    void echo(ChannelSubscription subscription, JsonObject data) {
        subscription.transmit(new JsonObject().put("echo", data.getValue("text")));
    }

    /** Fails with the client's text in its message (the abuse suite: log hygiene of an action that throws). */
    @CableAction
    void fail(ChannelSubscription subscription, JsonObject data) {
        throw new IllegalStateException("the action failed on " + data.getValue("text"));
    }

    private static String room(ChannelSubscription subscription) {
        Object room = subscription.params().getValue("room");
        return room == null ? "lobby" : room.toString();
    }
}
