package io.quarkiverse.cable.it;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;

import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.StreamFrom;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

/** Every connection on /rooms/{room} receives the broadcasts of channel room:{room}. */
@WebSocket(path = "/rooms/{room}")
@StreamFrom("room:{room}")
public class RoomSocket {

    @Inject
    CableStreams streams;

    /**
     * Where each connection's "ready" got to on the server (opened, confirmed, handed to WebSockets Next to send), so
     * a test that never receives it can tell a server that never sent it from a frame lost on the way.
     */
    public static final Map<String, String> READY_PROGRESS = new ConcurrentHashMap<>();

    /** Tells the client once its stream is live, so it knows every later broadcast will reach it. */
    @OnOpen
    Uni<String> open(WebSocketConnection connection) {
        READY_PROGRESS.put(connection.id(), "opened");
        return streams.confirmed(connection)
                .invoke(() -> READY_PROGRESS.put(connection.id(), "confirmed on " + Thread.currentThread().getName()))
                .replaceWith("ready");
    }

    @OnClose
    void close(WebSocketConnection connection) {
        READY_PROGRESS.remove(connection.id());
    }
}
