package io.quarkiverse.cable.examples;

// tag::stream-from[]
import io.quarkiverse.cable.StreamFrom;
import io.quarkus.websockets.next.WebSocket;

// tag::stream-from-endpoint[]
@WebSocket(path = "/rooms/{room}")
@StreamFrom("chat:{room}")          // every connection on /rooms/lobby receives every broadcast on chat:lobby
public class RoomSocket { }         // who may stream which room: a StreamAuthorization bean (websockets page)
// end::stream-from-endpoint[]
// end::stream-from[]
