package io.quarkiverse.cable.it;

import jakarta.inject.Inject;

import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.StreamFrom;
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

    /** Tells the client once its stream is live, so it knows every later broadcast will reach it. */
    @OnOpen
    Uni<String> open(WebSocketConnection connection) {
        return Uni.createFrom().completionStage(streams.confirmed(connection)).replaceWith("ready");
    }
}
