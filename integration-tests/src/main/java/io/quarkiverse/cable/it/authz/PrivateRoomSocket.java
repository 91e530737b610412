package io.quarkiverse.cable.it.authz;

import jakarta.inject.Inject;

import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.StreamFrom;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

/** A room only members may read: {@link PrivateChannels} decides for channel private:{room}. */
@WebSocket(path = "/private-rooms/{room}")
@StreamFrom("private:{room}")
public class PrivateRoomSocket {

    @Inject
    CableStreams streams;

    /** Tells the client once its stream is live, so it knows every later broadcast will reach it. */
    @OnOpen
    Uni<String> open(WebSocketConnection connection) {
        return streams.confirmed(connection).replaceWith("ready");
    }
}
