package io.quarkiverse.cable.examples;

import jakarta.inject.Inject;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableStreams;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

// tag::feed-socket[]
@WebSocket(path = "/feed")
// Who may stream which channel: RoomAuthorization, a StreamAuthorization bean (websockets.adoc, "Authorizing streams")
public class FeedSocket {

    @Inject
    CableStreams streams;

    @OnTextMessage
    Uni<String> command(String channel, WebSocketConnection connection) {
        return streams.start(connection, channel) // <1>
                .replaceWith("started:" + channel)
                // A refused channel is the client's answer, not the server's error: a failed callback would be logged
                // by WebSockets Next at ERROR with its stack trace, once per frame. The cable logs the refusal itself,
                // rate-limited and escaped.
                .onFailure(CableException.class).recoverWithItem(refused -> "refused:" + channel);
    }

    @OnClose
    void closed(WebSocketConnection connection) {
        // Nothing to do: a closed connection's streams stop by themselves.
    }
}
// end::feed-socket[]
