package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.StreamFrom;
import io.quarkiverse.cable.runtime.websocket.StreamingEndpoints;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.websockets.next.BasicWebSocketConnector;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketClientConnection;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

/** @StreamFrom templates are found at build time and streamed to each connection, resolved from its path. */
class StreamFromEndpointTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Rooms.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory");

    @Inject
    StreamingEndpoints endpoints;

    @Inject
    Cable cable;

    @Inject
    BasicWebSocketConnector connector;

    @TestHTTPResource("/")
    URI base;

    @Test
    void streamsTheResolvedChannel() throws Exception {
        assertThat(endpoints.templates(Rooms.class.getName())).containsExactly("room:{room}", "everyone");
        List<String> received = new CopyOnWriteArrayList<>();
        WebSocketClientConnection client = connector.baseUri(base).path("/rooms/lobby")
                .executionModel(BasicWebSocketConnector.ExecutionModel.NON_BLOCKING) // in order
                .onTextMessage((connection, text) -> received.add(text)).connectAndAwait();
        try {
            await().atMost(30, TimeUnit.SECONDS).until(() -> received.contains("ready"));
            cable.broadcast("room:other", "not here");
            cable.broadcast("room:lobby", "in lobby");
            cable.broadcast("everyone", "to all");
            await().atMost(30, TimeUnit.SECONDS).until(() -> received.size() >= 3);
            // Order is promised per channel; these are two channels, so only "ready" has a fixed place.
            assertThat(received.get(0)).isEqualTo("ready");
            assertThat(received.subList(1, received.size())).containsExactlyInAnyOrder("in lobby", "to all");
        } finally {
            client.closeAndAwait();
        }
    }

    /**
     * The HTTP server negotiates sub-protocols from one list for every endpoint, and the cable adds Action Cable's to
     * it: only the Action Cable endpoint may answer with them. Without the cable's ActionCableProtocolGuard this
     * endpoint would answer {@code actioncable-v1-json}.
     */
    @Test
    void onlyTheActionCableEndpointNegotiatesActionCable() throws Exception {
        assertThat(negotiated("rooms/lobby")).isEmpty();
        assertThat(negotiated("cable")).isEqualTo("actioncable-v1-json");
    }

    private String negotiated(String path) throws Exception {
        java.net.http.WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .subprotocols("actioncable-v1-json", "actioncable-unsupported")
                .buildAsync(URI.create(base.resolve(path).toString().replaceFirst("^http", "ws")),
                        new java.net.http.WebSocket.Listener() {
                        })
                .get(30, TimeUnit.SECONDS);
        try {
            return socket.getSubprotocol();
        } finally {
            socket.abort();
        }
    }

    @WebSocket(path = "/rooms/{room}")
    @StreamFrom({ "room:{room}", "everyone" })
    public static class Rooms {

        @Inject
        CableStreams streams;

        @OnOpen
        Uni<String> open(WebSocketConnection connection) {
            return streams.confirmed(connection).replaceWith("ready");
        }
    }
}
