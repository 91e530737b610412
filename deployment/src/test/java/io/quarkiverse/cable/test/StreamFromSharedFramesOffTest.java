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
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.websockets.next.BasicWebSocketConnector;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketClientConnection;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

/**
 * {@code quarkus.cable.websocket.shared-frames=false}: every stream frame goes through WebSockets Next's
 * {@code sendText}, so its traffic log shows them (the documented way to debug stream frames).
 */
class StreamFromSharedFramesOffTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Off.class, TrafficLog.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideConfigKey("quarkus.cable.websocket.shared-frames", "false")
            .overrideConfigKey("quarkus.websockets-next.server.traffic-logging.enabled", "true")
            .overrideConfigKey("quarkus.log.category.\"io.quarkus.websockets.next.traffic\".level", "DEBUG");

    @Inject
    Cable cable;

    @Inject
    BasicWebSocketConnector connector;

    @TestHTTPResource("/")
    URI base;

    @Test
    void everyStreamFrameGoesThroughSendText() throws Exception {
        TrafficLog traffic = TrafficLog.attach();
        List<String> received = new CopyOnWriteArrayList<>();
        WebSocketClientConnection client = connector.baseUri(base).path("/off")
                .executionModel(BasicWebSocketConnector.ExecutionModel.NON_BLOCKING)
                .onTextMessage((connection, text) -> received.add(text)).connectAndAwait();
        try {
            await().atMost(30, TimeUnit.SECONDS).until(() -> received.contains("ready"));
            cable.broadcast("off", "small one").toCompletableFuture().get(30, TimeUnit.SECONDS);
            await().atMost(30, TimeUnit.SECONDS).until(() -> received.contains("small one"));
            await().atMost(30, TimeUnit.SECONDS)
                    .untilAsserted(() -> assertThat(traffic.sentTexts()).contains("small on"));
        } finally {
            traffic.close();
            client.closeAndAwait();
        }
    }

    @WebSocket(path = "/off")
    @StreamFrom("off")
    public static class Off {

        @Inject
        CableStreams streams;

        @OnOpen
        Uni<String> open(WebSocketConnection connection) {
            return streams.confirmed(connection).replaceWith("ready");
        }
    }
}
