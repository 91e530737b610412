package io.quarkiverse.cable.examples;

import jakarta.inject.Inject;

import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.StreamFrom;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

// tag::ready-room-socket[]
@WebSocket(path = "/ready-rooms/{room}")
@StreamFrom("room:{room}")                       // <1>
// Who may stream which room: RoomAuthorization, a StreamAuthorization bean (websockets.adoc, "Authorizing streams")
public class ReadyRoomSocket {

    @Inject
    CableStreams streams;

    @OnOpen
    Uni<String> open(WebSocketConnection connection) {
        // <2>
        return streams.confirmed(connection).replaceWith("ready");
    }
}
// end::ready-room-socket[]
