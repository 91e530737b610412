package io.quarkiverse.cable.examples;

import jakarta.inject.Inject;

import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.StreamCallback;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.UserData;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

/** The WebSockets page's callback: each connection sees the prices its user may see, rendered for it. */
@WebSocket(path = "/visible-prices")
public class VisiblePriceSocket {

    static final UserData.TypedKey<String> USER = UserData.TypedKey.forString("user");

    @Inject
    CableStreams streams;

    @OnOpen
    Uni<String> open(WebSocketConnection connection) {
        String user = connection.handshakeRequest().header("X-User");
        if (user != null) {
            connection.userData().put(USER, user);
        }
        // tag::stream-callback[]
        // RoomAuthorization (StreamAuthorization) decides who may stream "prices"; the callback, what each one sees.
        // Each payload arrives decoded to a Price, with the application's ObjectMapper (the one broadcast encoded with).
        streams.start(connection, "prices", StreamCallback.typed(Price.class,
                (price, target) -> visibleTo(price, target.userData().get(USER)) ? render(price) : null)); // null: nothing
        // end::stream-callback[]
        return streams.confirmed(connection).replaceWith("ready"); // started: live
    }

    /** Prices of a million cents or more are for "pro" users. */
    static boolean visibleTo(Price price, String user) {
        return price.cents() < 1_000_000 || "pro".equals(user);
    }

    static String render(Price price) {
        return price.symbol() + " " + price.cents();
    }
}
