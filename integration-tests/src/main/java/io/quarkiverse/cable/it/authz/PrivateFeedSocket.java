package io.quarkiverse.cable.it.authz;

import jakarta.inject.Inject;

import io.quarkiverse.cable.CableStreams;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

/**
 * {@code start:<channel>} starts a stream with {@link CableStreams} and answers {@code started:<channel>}, or
 * {@code refused:<channel>:<the failure's class>} when the stage fails (the connection stays open).
 */
@WebSocket(path = "/private-feed")
public class PrivateFeedSocket {

    @Inject
    CableStreams streams;

    @OnTextMessage
    Uni<String> command(String command, WebSocketConnection connection) {
        String channel = command.startsWith("start:") ? command.substring("start:".length()) : command;
        return streams.start(connection, channel)
                .map(ignored -> "started:" + channel)
                .onFailure().recoverWithItem(failure -> "refused:" + channel + ":" + failure.getClass().getSimpleName());
    }
}
