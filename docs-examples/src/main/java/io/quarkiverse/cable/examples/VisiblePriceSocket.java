package io.quarkiverse.cable.examples;

import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.cable.CableStreams;
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

    @Inject
    ObjectMapper mapper;

    @OnOpen
    Uni<String> open(WebSocketConnection connection) {
        String user = connection.handshakeRequest().header("X-User");
        if (user != null) {
            connection.userData().put(USER, user);
        }
        // tag::stream-callback[]
        // RoomAuthorization (StreamAuthorization) decides who may stream "prices"; the callback, what each one sees.
        streams.start(connection, "prices", (message, target) -> {
            Price price = parse(message.text());
            return visibleTo(price, target.userData().get(USER)) ? render(price) : null;   // null sends nothing
        });
        // end::stream-callback[]
        return Uni.createFrom().completionStage(streams.confirmed(connection)).replaceWith("ready"); // started: live
    }

    private Price parse(String json) {
        try {
            return mapper.readValue(json, Price.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Prices of a million cents or more are for "pro" users. */
    static boolean visibleTo(Price price, String user) {
        return price.cents() < 1_000_000 || "pro".equals(user);
    }

    static String render(Price price) {
        return price.symbol() + " " + price.cents();
    }
}
