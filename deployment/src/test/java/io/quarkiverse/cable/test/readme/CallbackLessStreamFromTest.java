package io.quarkiverse.cable.test.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.runtime.websocket.StreamingEndpoints;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.websockets.next.BasicWebSocketConnector;
import io.quarkus.websockets.next.OpenConnections;
import io.quarkus.websockets.next.WebSocketClientConnection;
import io.quarkus.websockets.next.WebSocketConnection;

/**
 * The README's {@code @StreamFrom} endpoint, a class without any callback, builds as written (WebSockets Next alone
 * refuses it) and streams: the cable serves it through a generated subclass with the same path and endpoint id.
 */
class CallbackLessStreamFromTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(RoomSocket.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory");

    @Inject
    StreamingEndpoints endpoints;

    @Inject
    Cable cable;

    @Inject
    CableStreams streams;

    @Inject
    OpenConnections connections;

    @Inject
    BasicWebSocketConnector connector;

    @TestHTTPResource("/")
    URI base;

    @Test
    void theReadmeEndpointStreamsItsRoom() throws Exception {
        assertThat(endpoints.templates(RoomSocket.class.getName())).containsExactly("room:{room}");
        List<String> received = new CopyOnWriteArrayList<>();
        WebSocketClientConnection client = connector.baseUri(base).path("/rooms/lobby")
                .executionModel(BasicWebSocketConnector.ExecutionModel.NON_BLOCKING) // in order
                .onTextMessage((connection, text) -> received.add(text)).connectAndAwait();
        try {
            // The server side of this connection, under the README class's endpoint id; live once confirmed.
            await().atMost(30, TimeUnit.SECONDS)
                    .until(() -> !connections.findByEndpointId(RoomSocket.class.getName()).isEmpty());
            WebSocketConnection server = connections.findByEndpointId(RoomSocket.class.getName()).iterator().next();
            assertThat(server.pathParam("room")).isEqualTo("lobby");
            streams.confirmed(server).await().atMost(java.time.Duration.ofSeconds(30));

            cable.broadcast("room:other", "not here");
            cable.broadcast("room:lobby", "first");
            cable.broadcast("room:lobby", "second");
            await().atMost(30, TimeUnit.SECONDS).until(() -> received.size() >= 2);
            assertThat(received).containsExactly("first", "second");
        } finally {
            client.closeAndAwait();
        }
    }
}
