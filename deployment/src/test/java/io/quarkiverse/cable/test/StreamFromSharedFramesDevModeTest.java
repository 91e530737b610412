package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

import jakarta.inject.Inject;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.StreamFrom;
import io.quarkus.test.QuarkusDevModeTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

/**
 * Dev mode loads the application in a class loader of its own, apart from WebSockets Next's classes: the generated
 * socket accessor must still be loaded beside them (it calls a package-private method), or shared frames would fall
 * back to sendText with a warning. A stream frame must arrive, and no such warning be logged.
 */
class StreamFromSharedFramesDevModeTest {

    @RegisterExtension
    static final QuarkusDevModeTest app = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClass(Echo.class)
                    .addAsResource(new StringAsset("quarkus.cable.adapter=memory\n"), "application.properties"))
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.WARNING.intValue()
                    && record.getLoggerName().startsWith("io.quarkiverse.cable"));

    @TestHTTPResource("/")
    URI base;

    @Test
    void aStreamFrameArrivesThroughTheSharedBuffer() throws Exception {
        BlockingQueue<String> frames = new LinkedBlockingQueue<>();
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create("ws://" + base.getHost() + ":" + base.getPort() + "/echo"),
                        new TextFrames(frames::add))
                .get(60, TimeUnit.SECONDS);
        try {
            assertThat(frames.poll(60, TimeUnit.SECONDS)).isEqualTo("ready");
            String message = "through the shared buffer ü€𝄞 " + System.nanoTime();
            socket.sendText(message, true).get(30, TimeUnit.SECONDS);
            assertThat(frames.poll(60, TimeUnit.SECONDS)).isEqualTo(message);
        } finally {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(30, TimeUnit.SECONDS);
        }
        assertThat(app.getLogRecords()).as("warnings of the cable").isEmpty();
    }

    /** Streams "echo" and broadcasts to it whatever a client sends: the answer comes back through the stream. */
    @io.quarkus.websockets.next.WebSocket(path = "/echo")
    @StreamFrom("echo")
    public static class Echo {

        @Inject
        CableStreams streams;

        @Inject
        Cable cable;

        @OnOpen
        Uni<String> open(WebSocketConnection connection) {
            return streams.confirmed(connection).replaceWith("ready");
        }

        @OnTextMessage
        Uni<Void> broadcast(String text) {
            return Uni.createFrom().completionStage(cable.broadcast("echo", text)).replaceWithVoid();
        }
    }
}
