package io.quarkiverse.cable.examples;

// tag::manual-room-socket[]
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;

@WebSocket(path = "/manual-rooms/{room}")
public class ManualRoomSocket {

    @Inject
    Cable cable;

    private final Map<String, Subscription> subscriptions = new ConcurrentHashMap<>();

    @OnOpen
    void open(WebSocketConnection connection) {
        String channel = "chat:" + connection.pathParam("room");
        // Cable.subscribe is no stream front end: no StreamAuthorization is asked, so decide here who may read it.
        subscriptions.put(connection.id(),
                cable.subscribe(channel, message -> connection.sendTextAndAwait(message.text())));
    }

    @OnTextMessage
    void message(WebSocketConnection connection, String text) {
        cable.broadcast("chat:" + connection.pathParam("room"), text); // reaches the room on every node
    }

    @OnClose
    void close(WebSocketConnection connection) {
        Subscription subscription = subscriptions.remove(connection.id());
        if (subscription != null) {
            subscription.close();
        }
    }
}
// end::manual-room-socket[]
