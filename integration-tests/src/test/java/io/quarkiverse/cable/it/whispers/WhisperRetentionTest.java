package io.quarkiverse.cable.it.whispers;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.it.presence.PresenceTest;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * What is never replayed is not kept past its delivery: whisper rows ({@code cable:whispers}) and presence events
 * ({@code cable:presence}) are deleted once {@code quarkus.cable.trim.live-retention} has passed, on the trimmer's own
 * schedule (no further write needed to owe a trim), while the stream's own messages stay for
 * {@code message-retention} (one day here). A short live retention so the test waits seconds, not the default 30 s.
 */
@QuarkusTest
@OncePerServer
@TestProfile(WhisperRetentionTest.ShortLiveRetention.class)
public class WhisperRetentionTest {

    public static class ShortLiveRetention implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.trim.live-retention", "2s", "quarkus.cable.limits.max-whisper-size", "1K");
        }
    }

    private static final String V1 = "actioncable-v1-json";
    private static final String EXT = "actioncable-v1-ext-json";
    private static Vertx vertx;

    @TestHTTPResource("/")
    URI base;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    @Internal
    CableEngine engine;

    private final List<WsClient> clients = new ArrayList<>();

    @BeforeAll
    static void startClient() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopClient() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @AfterEach
    void close() throws Exception {
        for (WsClient client : clients) {
            client.close();
        }
    }

    @Test
    void whispersAndPresenceEventsAreGoneAfterTheLiveRetentionAndTheStreamsMessagesStay() throws Exception {
        long before = newestId();
        String room = Channels.unique("retention");
        String chat = chat(room);
        WsClient ann = subscribed("ann", EXT, chat); // presence needs the extended protocol
        WsClient bob = subscribed("bob", V1, chat); // V1: the fence's broadcast frame has no stream position

        int whispers = 10;
        for (int i = 0; i < whispers; i++) {
            ann.send(whisper(chat, "{\"n\":" + i + "}"));
        }
        String text = Channels.unique("kept");
        ann.send(new JsonObject().put("command", "message").put("identifier", chat)
                .put("data", new JsonObject().put("action", "speak").put("text", text).encode()).encode());
        // Delivered first: ann's commands run in order, so bob has every whisper before her broadcast.
        bob.awaitFrame("{\"identifier\":" + Json.encode(chat) + ",\"message\":"
                + new JsonObject().put("text", text).put("user", "ann").encode() + "}");
        assertThat(bob.received.stream().filter(frame -> frame.contains("{\"n\":")).count()).isEqualTo(whispers);
        ann.send(PresenceTest.join(chat, "\"ann\"", null));
        ann.awaitFrame("{\"type\":\"presence\",\"identifier\":" + Json.encode(chat)
                + ",\"message\":{\"type\":\"join\",\"id\":\"ann\"}}");
        // Stored: the whispers and the join travelled through the database.
        assertThat(rows(IdentityChannels.WHISPERS, before)).isEqualTo(whispers);
        assertThat(rows(IdentityChannels.PRESENCE, before)).isEqualTo(1);
        long streamRows = rows("chat:" + room, before);
        assertThat(streamRows).isPositive();

        // Gone after the live retention (2 s) plus the trimmer's period, with nothing else written meanwhile; the
        // bound is generous for a loaded machine.
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> rows(IdentityChannels.WHISPERS, before) == 0 && rows(IdentityChannels.PRESENCE, before) == 0);
        // The stream's message is within message-retention (1 day): kept, as recovery promises.
        assertThat(rows("chat:" + room, before)).isEqualTo(streamRows);
    }

    @Test
    void aWhisperOverTheSizeLimitIsDroppedCountedAndNeverStored() throws Exception {
        long before = newestId();
        String chat = chat(Channels.unique("size"));
        WsClient ann = subscribed("ann", EXT, chat);
        WsClient bob = subscribed("bob", V1, chat);
        long refusedBefore = engine.stats().refusals(CableStats.Refusal.WHISPER_SIZE);
        // 1 KiB is the limit: the JSON of the data, in UTF-8 bytes ("é" is two).
        // Objects (ChatChannel refuses other whispers): {"t":"<n x é>"} is 8 + 2n bytes.
        String fits = "{\"t\":\"" + "é".repeat(508) + "\"}"; // 1,024 bytes
        String over = "{\"t\":\"" + "é".repeat(509) + "\"}"; // 1,026
        ann.send(whisper(chat, over));
        ann.send(whisper(chat, fits));
        String text = Channels.unique("fence");
        ann.send(new JsonObject().put("command", "message").put("identifier", chat)
                .put("data", new JsonObject().put("action", "speak").put("text", text).encode()).encode());
        bob.awaitFrame("{\"identifier\":" + Json.encode(chat) + ",\"message\":"
                + new JsonObject().put("text", text).put("user", "ann").encode() + "}");
        // The one that fits arrived, the other did not, and only the one that fits was ever stored.
        // (The one that fits arrives with its sender stamped: {"t":"...","from":"ann"}.)
        assertThat(bob.received).anyMatch(frame -> frame.contains("\"t\":\"" + "é".repeat(508) + "\""))
                .noneMatch(frame -> frame.contains("é".repeat(509)));
        assertThat(engine.stats().refusals(CableStats.Refusal.WHISPER_SIZE) - refusedBefore).isEqualTo(1);
        assertThat(rows(IdentityChannels.WHISPERS, before)).isLessThanOrEqualTo(1);
        assertThat(ann.closeStatus).isNotDone();
    }

    private long rows(String channel, long after) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement count = connection.prepareStatement(
                        "SELECT COUNT(*) FROM cable_messages WHERE channel_hash = ? AND id > ?")) {
            count.setLong(1, ChannelHash.of(channel));
            count.setLong(2, after);
            try (ResultSet result = count.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

    private long newestId() throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement newest = connection.prepareStatement("SELECT COALESCE(MAX(id), 0) FROM cable_messages");
                ResultSet result = newest.executeQuery()) {
            result.next();
            return result.getLong(1);
        }
    }

    private WsClient subscribed(String user, String protocol, String identifier) throws Exception {
        WsClient client = WsClient.connect(vertx, base, "/cable?user=" + user, protocol);
        clients.add(client);
        client.send(new JsonObject().put("command", "subscribe").put("identifier", identifier).encode());
        client.awaitFrame("{\"identifier\":" + Json.encode(identifier) + ",\"type\":\"confirm_subscription\"}");
        return client;
    }

    private static String chat(String room) {
        return new JsonObject().put("channel", "ChatChannel").put("room", room).encode();
    }

    private static String whisper(String identifier, String dataJson) {
        return "{\"command\":\"whisper\",\"identifier\":" + Json.encode(identifier) + ",\"data\":" + dataJson + "}";
    }
}
