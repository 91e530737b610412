package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.vertx.core.json.JsonObject;

/**
 * {@code quarkus.cable.action-cable.whispers.enabled=false}: a channel's {@code whisperTo} lets nothing through, the
 * whisper is dropped and the connection goes on (with whispers on, this test fails: the other client hears it).
 */
class WhispersOffTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RoomChannel.class, TextFrames.class))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideConfigKey("quarkus.cable.action-cable.whispers.enabled", "false");

    private static final String ROOM = new JsonObject().put("channel", "RoomChannel").encode();

    @TestHTTPResource("/")
    URI base;

    @CableChannel("RoomChannel")
    public static class RoomChannel implements ChannelHandler {

        @Inject
        Cable cable;

        @Override
        public void subscribed(ChannelSubscription subscription) {
            subscription.streamFrom("room");
            subscription.whisperTo("room");
        }

        @CableAction
        void speak(ChannelSubscription subscription, JsonObject data) {
            cable.broadcast("room", data.getString("text")).toCompletableFuture().join();
        }
    }

    @Test
    void whispersAreDroppedAndTheConnectionGoesOn() throws Exception {
        Client ann = Client.subscribed(base);
        Client bob = Client.subscribed(base);
        ann.send(new JsonObject().put("command", "whisper").put("identifier", ROOM)
                .put("data", new JsonObject().put("event", "typing")).encode());
        // ann's commands run in order: a whisper let through would reach bob before her broadcast does.
        ann.send(new JsonObject().put("command", "message").put("identifier", ROOM)
                .put("data", new JsonObject().put("action", "speak").put("text", "after").encode()).encode());
        await().atMost(60, TimeUnit.SECONDS).until(() -> bob.frames.stream().anyMatch(f -> f.contains("\"after\"")));
        assertThat(bob.frames).noneMatch(frame -> frame.contains("typing"));
        assertThat(ann.socket.isOutputClosed()).isFalse();
    }

    /** A plain {@code actioncable-v1-json} client on the JDK's WebSocket, subscribed to RoomChannel. */
    private static final class Client {
        final List<String> frames = new CopyOnWriteArrayList<>();
        WebSocket socket;

        static Client subscribed(URI base) throws Exception {
            Client client = new Client();
            client.socket = HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("actioncable-v1-json")
                    .buildAsync(URI.create("ws://" + base.getHost() + ":" + base.getPort() + "/cable"),
                            new TextFrames(client.frames::add))
                    .get(60, TimeUnit.SECONDS);
            client.send(new JsonObject().put("command", "subscribe").put("identifier", ROOM).encode());
            await().atMost(60, TimeUnit.SECONDS)
                    .until(() -> client.frames.stream().anyMatch(f -> f.contains("confirm_subscription")));
            return client;
        }

        void send(String text) throws Exception {
            socket.sendText(text, true).get(60, TimeUnit.SECONDS);
        }
    }
}
