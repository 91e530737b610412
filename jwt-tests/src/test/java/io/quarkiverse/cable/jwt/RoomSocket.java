package io.quarkiverse.cable.jwt;

import io.quarkiverse.cable.StreamFrom;
import io.quarkus.websockets.next.WebSocket;

/** A streaming endpoint without callbacks: every connection on /rooms/lobby receives room:lobby. */
@WebSocket(path = "/rooms/{room}")
@StreamFrom("room:{room}")
public class RoomSocket {
}
