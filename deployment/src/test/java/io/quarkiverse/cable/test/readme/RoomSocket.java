package io.quarkiverse.cable.test.readme;

import io.quarkiverse.cable.StreamFrom;
import io.quarkus.websockets.next.WebSocket;

// The README's minimal endpoint, exactly: no callback at all (CallbackLessStreamFromTest).
@WebSocket(path = "/rooms/{room}")
@StreamFrom("room:{room}") // every connection on /rooms/lobby receives every broadcast on room:lobby
public class RoomSocket {
}
