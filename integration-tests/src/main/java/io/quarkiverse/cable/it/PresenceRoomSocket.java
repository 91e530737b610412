package io.quarkiverse.cable.it;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletionException;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.StreamFrom;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

/**
 * Presence on a {@code @StreamFrom} endpoint: each connection on /presence-rooms/{room}?user=... streams room:{room}
 * and joins its presence set as its {@code user} query parameter ({@code CableStreams.joinPresence}); it answers
 * "joined" once the join committed, or "refused <exception>: <message>". The text "leave" leaves the set ("left"),
 * "join:<id>" joins it again as that id, "also:<room>" joins room:{that room}'s set as well (as {@code user}). A test
 * endpoint: anyone may join as any id here, so unless
 * {@code cable-it.test-endpoints=true} (the test profile, see {@link TestEndpoint}) it closes every connection at once.
 */
@WebSocket(path = "/presence-rooms/{room}")
@StreamFrom("room:{room}")
public class PresenceRoomSocket {

    @Inject
    CableStreams streams;

    @ConfigProperty(name = "cable-it.test-endpoints", defaultValue = "false")
    boolean testEndpoints;

    @OnOpen
    Uni<Void> open(WebSocketConnection connection) {
        if (!testEndpoints) {
            return connection.close(); // the packaged demo: nobody joins a set as an id of their own choice
        }
        String user = queryParam(connection, "user");
        return answer(streams.joinPresence(connection, set(connection), user, Map.of("name", String.valueOf(user))),
                "joined").chain(connection::sendText);
    }

    @OnTextMessage
    Uni<String> command(WebSocketConnection connection, String text) {
        if (text.equals("leave")) {
            return answer(streams.leavePresence(connection, set(connection)), "left");
        }
        if (text.startsWith("join:")) {
            return answer(streams.joinPresence(connection, set(connection), text.substring("join:".length()), null),
                    "joined");
        }
        if (text.startsWith("also:")) {
            return answer(streams.joinPresence(connection, "room:" + text.substring("also:".length()),
                    queryParam(connection, "user"), null), "joined");
        }
        return Uni.createFrom().item("unknown command");
    }

    private static String set(WebSocketConnection connection) {
        return "room:" + connection.pathParam("room");
    }

    private static Uni<String> answer(Uni<Void> result, String done) {
        return result.replaceWith(done).onFailure().recoverWithItem(failure -> {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                    : failure;
            return "refused " + cause.getClass().getSimpleName() + ": " + cause.getMessage();
        });
    }

    private static String queryParam(WebSocketConnection connection, String name) {
        String query = connection.handshakeRequest().query();
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            int equals = pair.indexOf('=');
            String key = equals < 0 ? pair : pair.substring(0, equals);
            if (key.equals(name)) {
                return equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }
}
