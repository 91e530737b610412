package io.quarkiverse.cable.test;

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
import io.quarkiverse.cable.StreamFrom;
import io.quarkiverse.cable.runtime.websocket.StreamingEndpoints;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.websockets.next.BasicWebSocketConnector;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketClientConnection;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

/**
 * A nested {@code @WebSocket} class is a sub-endpoint served at the enclosing path plus its own: its
 * {@code @StreamFrom} template may name a parameter of the enclosing path, and it streams the resolved channel.
 */
class StreamFromNestedEndpointTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Shop.class, Shop.Orders.class))
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
    void templateNamingTheEnclosingParameterStreams() throws Exception {
        assertThat(endpoints.templates(Shop.Orders.class.getName())).containsExactly("shop:{shop}:orders:{kind}");
        List<String> received = new CopyOnWriteArrayList<>();
        WebSocketClientConnection client = connector.baseUri(base).path("/shops/acme/orders/open")
                .executionModel(BasicWebSocketConnector.ExecutionModel.NON_BLOCKING) // in order
                .onTextMessage((connection, text) -> received.add(text)).connectAndAwait();
        try {
            await().atMost(60, TimeUnit.SECONDS).until(() -> received.contains("ready"));
            cable.broadcast("shop:other:orders:open", "not here");
            cable.broadcast("shop:acme:orders:open", "order 1");
            await().atMost(60, TimeUnit.SECONDS).until(() -> received.size() >= 2);
            assertThat(received).containsExactly("ready", "order 1");
        } finally {
            client.closeAndAwait();
        }
    }

    @WebSocket(path = "/shops/{shop}")
    public static class Shop {

        @OnTextMessage
        String echo(String message) {
            return message;
        }

        @WebSocket(path = "/orders/{kind}")
        @StreamFrom("shop:{shop}:orders:{kind}")
        public static class Orders {

            @Inject
            CableStreams streams;

            @OnOpen
            Uni<String> open(WebSocketConnection connection) {
                return streams.confirmed(connection).replaceWith("ready");
            }
        }
    }
}
