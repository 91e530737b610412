package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.FreezingProxy;
import io.quarkiverse.cable.it.RawHttpStream;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.it.presence.PresenceTest;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * A client that vanishes without closing (its proxy stops forwarding: no FIN, no RST) is noticed: it answers no
 * WebSocket ping, so after {@code quarkus.cable.websocket.pong-timeout} (1 s here, pings every 200 ms) its connection is
 * closed and its presence leaves when the TTL (2 s) ends; on the plain and the extended Action Cable protocol and on
 * a WebSockets Next endpoint ({@code CableStreams.joinPresence}). Clients that answer pings (the JDK's WebSocket does,
 * as browsers do) stay connected however long they are quiet. Before the pong deadline the vanished members stayed
 * until TCP gave up, about 15 minutes. SSE has no way back from the client: a quiet stream gets heartbeats (comment
 * lines, every 200 ms here), so that TCP has something to deliver and a heartbeat that cannot be written stalls the
 * stream (the stall itself is SseOutboxHeartbeatTest's); before them an idle stream to a vanished client stayed open
 * for as long as the process lived.
 */
@QuarkusTest
@DatabaseIndependent
@TestProfile(LivenessTest.ShortDeadline.class)
public class LivenessTest {

    public static class ShortDeadline implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.websocket.ping-interval", "200ms",
                    "quarkus.cable.websocket.pong-timeout", "1s",
                    "quarkus.cable.sse.heartbeat-interval", "200ms");
        }
    }

    private static final String EXT = "actioncable-v1-ext-json";
    private static final String V1 = "actioncable-v1-json";

    @TestHTTPResource("/")
    URI base;

    @Inject
    @Internal
    CableEngine engine;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : open) {
            closeable.close();
        }
    }

    @Test
    void vanishedClientsLeaveAndQuietOnesStay() throws Exception {
        String room = Channels.unique("liveness");
        String chat = new JsonObject().put("channel", "ChatChannel").put("room", room).encode();
        WsClient watcher = subscribed(base, "watcher", V1, chat);

        FreezingProxy proxy = FreezingProxy.to(base.getPort());
        open.add(proxy);
        URI proxied = URI.create("http://127.0.0.1:" + proxy.port() + "/");
        // The extended protocol's client joins itself; the plain one is joined by the server (the here action).
        WsClient extended = subscribed(proxied, "vanishing-ext", EXT, chat);
        extended.send(PresenceTest.join(chat, Json.encode("vanishing-ext"), null));
        WsClient plain = subscribed(proxied, "vanishing-v1", V1, chat);
        plain.send(new JsonObject().put("command", "message").put("identifier", chat)
                .put("data", new JsonObject().put("action", "here").encode()).encode());
        // A WebSockets Next endpoint whose connections join presence as their user.
        WsClient socketsNext = WsClient.connect(null, proxied, "/presence-rooms/" + room.replace(':', '-')
                + "?user=vanishing-wsnext");
        open.add(socketsNext);
        socketsNext.awaitFrame("joined");
        watcher.awaitFrame(presenceFrame(chat, "{\"type\":\"join\",\"id\":\"vanishing-ext\"}"));
        watcher.awaitFrame(presenceFrame(chat,
                "{\"type\":\"join\",\"id\":\"vanishing-v1\",\"info\":{\"name\":\"vanishing-v1\"}}"));

        long unresponsiveBefore = engine.stats().unresponsiveConnections();
        long frozenAt = System.nanoTime();
        proxy.freeze();

        watcher.awaitFrame(presenceFrame(chat, "{\"type\":\"leave\",\"id\":\"vanishing-ext\"}"));
        watcher.awaitFrame(presenceFrame(chat, "{\"type\":\"leave\",\"id\":\"vanishing-v1\"}"));
        String wsNextRoom = "room:" + room.replace(':', '-');
        await().atMost(Duration.ofSeconds(60)).until(() -> engine.presence().count(wsNextRoom) == 0);
        long tookMillis = Duration.ofNanos(System.nanoTime() - frozenAt).toMillis();
        System.out.printf("LivenessTest: the vanished members left %d ms after their proxy froze"
                + " (pong timeout 1 s, pings every 200 ms, TTL 2 s)%n", tookMillis);
        assertThat(engine.stats().unresponsiveConnections() - unresponsiveBefore).isGreaterThanOrEqualTo(3);
        // The watcher said nothing all along, but its client answered every ping: it is still connected and served.
        assertThat(watcher.closeStatus).isNotDone();
        watcher.send(new JsonObject().put("command", "message").put("identifier", chat)
                .put("data", new JsonObject().put("action", "echo").put("text", "still here").encode()).encode());
        watcher.awaitFrame(new JsonObject().put("identifier", chat)
                .put("message", new JsonObject().put("echo", "still here")).encode());
    }

    @Test
    void quietSseStreamsGetHeartbeatsThatAreNotEvents() throws Exception {
        String channel = Channels.unique("liveness-sse");
        try (RawHttpStream stream = RawHttpStream.sse(base, "/events/" + channel, null, 0)) {
            open.add(stream);
            assertThat(stream.readHead()).startsWith("HTTP/1.1 200");
            // Three heartbeats on a channel nobody broadcasts to, after the subscribed event; a comment line is all
            // they are (no event, no data, no id: an EventSource's lastEventId stays the subscribed event's).
            String body = stream.readUntil(":\n\n", 3, Duration.ofSeconds(60));
            String subscribed = "event:cable-subscribed\ndata:{}\n";
            assertThat(body).contains(subscribed);
            assertThat(body.substring(body.indexOf(subscribed) + subscribed.length())).doesNotContain("data:")
                    .doesNotContain("id:").doesNotContain("event:");
        }
    }

    private WsClient subscribed(URI to, String user, String protocol, String chat) throws Exception {
        WsClient client = WsClient.connect(null, to, "/cable?user=" + user, protocol);
        open.add(client);
        client.send(new JsonObject().put("command", "subscribe").put("identifier", chat).encode());
        client.awaitFrame("{\"identifier\":" + Json.encode(chat) + ",\"type\":\"confirm_subscription\"}");
        return client;
    }

    private static String presenceFrame(String identifier, String messageJson) {
        return "{\"type\":\"presence\",\"identifier\":" + Json.encode(identifier) + ",\"message\":" + messageJson + "}";
    }
}
