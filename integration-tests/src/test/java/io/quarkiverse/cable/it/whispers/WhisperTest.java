package io.quarkiverse.cable.it.whispers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.DatabaseNodes;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * Whispers ({@code @anycable/web}'s {@code channel.whisper}) as raw frames: to the other subscribers of the stream,
 * never to the sender's connection, never into the stream's history, only where the channel allows them
 * ({@code ChatChannel} does, except in room {@code nowhisper}), limited per connection; and across nodes through the
 * database, with a second engine on the same database as the other node.
 */
@OncePerServer
@QuarkusTest
public class WhisperTest {

    private static final String V1 = "actioncable-v1-json";
    private static final String EXT = "actioncable-v1-ext-json";
    private static Vertx vertx;

    @TestHTTPResource("/")
    URI base;

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CableRuntimeConfig config;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    private CableEngine nodeTwo;
    private final List<WsClient> clients = new ArrayList<>();

    @BeforeAll
    static void startClient() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopClient() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void startNodeTwo() {
        nodeTwo = DatabaseNodes.node("whisper-node-two", () -> dataSource, SqlDialect.forDbKind(dbKind), config);
        nodeTwo.start();
    }

    @AfterEach
    void stop() throws Exception {
        for (WsClient client : clients) {
            client.close();
        }
        nodeTwo.stop();
    }

    @Test
    void aWhisperReachesTheOtherSubscribersNeverTheSenderNorTheHistory() throws Exception {
        String room = Channels.unique("typing");
        String chat = chat(room);
        WsClient ann = subscribed("ann", EXT, chat);
        WsClient bob = subscribed("bob", V1, chat);
        WsClient carol = subscribed("carol", EXT, chat);

        ann.send(whisper(chat, "{\"event\":\"typing\",\"user\":\"ann\"}"));
        ann.send(whisper(chat, "\"tshh\"")); // ChatChannel refuses whispers that are not objects: no sender in them
        ann.send(whisper(chat, "{\"event\":\"stopped\"}"));
        // As AnyCable frames it: the data, with the sender the server stamped, no type, no stream_id or offset.
        for (WsClient other : List.of(bob, carol)) {
            other.awaitFrame(message(chat, "{\"event\":\"stopped\",\"from\":\"ann\"}"));
            assertThat(messages(other, chat)).containsExactly(
                    message(chat, "{\"event\":\"typing\",\"user\":\"ann\",\"from\":\"ann\"}"),
                    message(chat, "{\"event\":\"stopped\",\"from\":\"ann\"}"));
        }
        // bob answers; ann hears him after her own, which her connection left out.
        bob.send(whisper(chat, "{\"from\":\"bob\"}"));
        ann.awaitFrame(message(chat, "{\"from\":\"bob\"}"));
        assertThat(messages(ann, chat)).containsExactly(message(chat, "{\"from\":\"bob\"}"));
        // Nothing of it is in the stream: no position, nothing to replay.
        assertThat(engine.position("chat:" + room)).isEmpty();
    }

    @Test
    void aWhisperCarriesItsSenderAsTheServerKnowsIt() throws Exception {
        String chat = chat(Channels.unique("forged"));
        WsClient eve = subscribed("eve", EXT, chat);
        WsClient alice = subscribed("alice", V1, chat);
        // eve claims to be alice: the server overwrites the sender with eve's identity.
        eve.send(whisper(chat, "{\"from\":\"alice\",\"typing\":true}"));
        alice.awaitFrame(message(chat, "{\"from\":\"eve\",\"typing\":true}"));
        assertThat(messages(alice, chat)).containsExactly(message(chat, "{\"from\":\"eve\",\"typing\":true}"));
    }

    @Test
    void aChannelThatAllowsNoWhispersDropsThemAndTheConnectionGoesOn() throws Exception {
        String chat = new JsonObject().put("channel", "ChatChannel").put("room", "nowhisper").encode();
        WsClient ann = subscribed("ann", EXT, chat);
        WsClient bob = subscribed("bob", V1, chat); // V1: the fence's broadcast frame has no stream position
        ann.send(whisper(chat, "{\"event\":\"typing\"}"));
        ann.send(new JsonObject().put("command", "whisper").put("identifier", chat).encode()); // no data
        ann.send(whisper(new JsonObject().put("channel", "ChatChannel").put("room", "elsewhere").encode(), "1"));
        // Commands of one connection run in order: once bob has ann's next broadcast, a whisper before it would have
        // reached him first (one writer, one poller, id order).
        String text = Channels.unique("after");
        ann.send(new JsonObject().put("command", "message").put("identifier", chat)
                .put("data", new JsonObject().put("action", "speak").put("text", text).encode()).encode());
        bob.awaitFrame(message(chat, new JsonObject().put("text", text).put("user", "ann").encode()));
        assertThat(bob.received).noneMatch(frame -> frame.contains("typing"));
        assertThat(ann.closeStatus).isNotDone();
    }

    @Test
    void whispersOverTheRateAreDroppedCountedAndTheConnectionStays() throws Exception {
        String chat = chat(Channels.unique("flood"));
        WsClient ann = subscribed("ann", EXT, chat);
        WsClient bob = subscribed("bob", V1, chat);
        long refusedBefore = engine.stats().refusals(CableStats.Refusal.WHISPER_RATE);
        int sent = 150; // within the command burst (200): the whisper bound answers, not the command rate
        for (int i = 0; i < sent; i++) {
            ann.send(whisper(chat, "{\"n\":" + i + "}"));
        }
        // The fence: ann's commands run in order, so every admitted whisper reaches bob before her next broadcast.
        String text = Channels.unique("fence");
        ann.send(new JsonObject().put("command", "message").put("identifier", chat)
                .put("data", new JsonObject().put("action", "speak").put("text", text).encode()).encode());
        bob.awaitFrame(message(chat, new JsonObject().put("text", text).put("user", "ann").encode()));
        long refused = engine.stats().refusals(CableStats.Refusal.WHISPER_RATE) - refusedBefore;
        List<String> delivered = bob.received.stream().filter(frame -> frame.contains("{\"n\":")).toList();
        // Each one either delivered once or refused and counted: never both, never neither, never twice.
        assertThat(delivered).doesNotHaveDuplicates();
        assertThat(delivered.size() + refused).isEqualTo(sent);
        // The bucket's size goes at once; the rest of the flood is refused (a few tokens refill meanwhile).
        assertThat(delivered.size()).isBetween(config.limits().whisperBurst(), sent - 50);
        assertThat(ann.closeStatus).isNotDone();
        assertThat(bob.closeStatus).isNotDone();
    }

    @Test
    void whispersCrossNodesThroughTheDatabase() throws Exception {
        String room = Channels.unique("nodes");
        String chat = chat(room);
        String stream = "chat:" + room;
        // Every whisper of the cable is on one channel, each naming its stream: keep this test's.
        String mark = stream.length() + ":" + stream;
        LinkedBlockingQueue<String> heardOnNodeTwo = new LinkedBlockingQueue<>();
        Subscription listening = nodeTwo.subscribe(IdentityChannels.WHISPERS, message -> {
            if (message.text().contains("\n" + mark)) {
                heardOnNodeTwo.add(message.text());
            }
        });
        listening.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
        WsClient ann = subscribed("ann", EXT, chat);
        WsClient bob = subscribed("bob", V1, chat);

        // From node one to node two: the sender's session and the stream travel with it.
        ann.send(whisper(chat, "{\"to\":\"node two\"}"));
        String envelope = heardOnNodeTwo.poll(60, TimeUnit.SECONDS);
        assertThat(envelope).isNotNull().endsWith("\n" + mark + "{\"to\":\"node two\",\"from\":\"ann\"}");
        String annSession = envelope.substring(0, envelope.indexOf('\n'));
        assertThat(ann.received).anyMatch(frame -> frame.contains("\"sid\":\"" + annSession + "\""));

        // From a session on node two to both clients on node one.
        nodeTwo.broadcastCommand(IdentityChannels.WHISPERS,
                ("elsewhere\n" + mark + "{\"from\":\"node two\"}").getBytes(StandardCharsets.UTF_8))
                .toCompletableFuture().get(60, TimeUnit.SECONDS);
        ann.awaitFrame(message(chat, "{\"from\":\"node two\"}"));
        bob.awaitFrame(message(chat, "{\"from\":\"node two\"}"));
        listening.close();
    }

    /**
     * A row on the whisper channel the cable did not write (SQL with the table's rights; the SQL broadcast refuses the
     * channel) whose data is not one JSON value is dropped, not spliced into the receivers' frames, where it would
     * close the frame's object and add its own {@code "type":"disconnect","reconnect":false}. A well-formed whisper
     * after it still arrives; one reader hands the channel over in id order, so the forged row was read before it.
     */
    @Test
    void aForgedWhisperRowThatIsNotOneJsonValueIsDropped() throws Exception {
        String room = Channels.unique("forged");
        String chat = chat(room);
        String mark = ("chat:" + room).length() + ":chat:" + room;
        WsClient ann = subscribed("ann", EXT, chat);
        WsClient bob = subscribed("bob", V1, chat);
        for (String data : List.of("null,\"type\":\"disconnect\",\"reconnect\":false",
                "{}}{\"type\":\"disconnect\",\"reconnect\":false", "1 2", "")) {
            nodeTwo.broadcastCommand(IdentityChannels.WHISPERS,
                    ("forger\n" + mark + data).getBytes(StandardCharsets.UTF_8)).toCompletableFuture()
                    .get(60, TimeUnit.SECONDS);
        }
        ann.send(whisper(chat, "{\"after\":\"forged\"}"));
        // ann's own whisper, with the sender the server stamped: the forged row before it never reached bob.
        bob.awaitFrame(message(chat, "{\"after\":\"forged\",\"from\":\"ann\"}"));
        assertThat(messages(bob, chat)).containsExactly(message(chat, "{\"after\":\"forged\",\"from\":\"ann\"}"));
        assertThat(messages(ann, chat)).isEmpty();
        for (WsClient client : List.of(ann, bob)) {
            assertThat(client.received).noneMatch(frame -> frame.contains("disconnect"));
            assertThat(client.closeStatus).isNotDone();
        }
    }

    @Test
    void whisperChannelsAreTheCablesOwn() {
        // Neither streamed by a client (its name would be authorized, not the stream's) nor broadcast by the app.
        assertThat(IdentityChannels.refused(IdentityChannels.WHISPERS, Map.of("user", "ann"))).isTrue();
        assertThat(IdentityChannels.refused("cable:whisper:chat:lobby", Map.of("user", "ann"))).isTrue();
        assertThatThrownBy(() -> cable.broadcast(IdentityChannels.WHISPERS, "x").toCompletableFuture()
                .join()).isInstanceOf(CompletionException.class).hasCauseInstanceOf(CableException.InvalidMessage.class);
    }

    private WsClient subscribed(String user, String protocol, String identifier) throws Exception {
        WsClient client = WsClient.connect(vertx, base, "/cable?user=" + user, protocol);
        clients.add(client);
        client.send(new JsonObject().put("command", "subscribe").put("identifier", identifier).encode());
        client.awaitFrame("{\"identifier\":" + Json.encode(identifier) + ",\"type\":\"confirm_subscription\"}");
        return client;
    }

    /** The frames to {@code identifier} that carry data (whispers, broadcasts), in arrival order. */
    private static List<String> messages(WsClient client, String identifier) {
        String start = "{\"identifier\":" + Json.encode(identifier) + ",\"message\":";
        return client.received.stream().filter(frame -> frame.startsWith(start)).toList();
    }

    private static String chat(String room) {
        return new JsonObject().put("channel", "ChatChannel").put("room", room).encode();
    }

    private static String whisper(String identifier, String dataJson) {
        return "{\"command\":\"whisper\",\"identifier\":" + Json.encode(identifier) + ",\"data\":" + dataJson + "}";
    }

    private static String message(String identifier, String dataJson) {
        return "{\"identifier\":" + Json.encode(identifier) + ",\"message\":" + dataJson + "}";
    }
}
