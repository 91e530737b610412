package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseNodes;
import io.quarkiverse.cable.it.GemBroadcaster;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.it.typed.ReadingChannel;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * Broadcasts "to others" (issue 44 item 5): the excluded session travels with the stored row, so the poller leaves
 * it out, and every other subscriber gets the message, whichever node wrote it (a second engine on the same
 * database; run with {@code -Pdb-postgresql} for PostgreSQL). Each case proves the absence without a sleep: a fence
 * broadcast to everyone on the same channel arrives after it (per-channel order), so a client that saw the fence and
 * not the excluded message never will.
 */
@QuarkusTest
@OncePerServer
public class ExcludeSessionTest {

    private static final String READINGS = "{\"channel\":\"ReadingChannel\"}";
    private static final String EXT = "actioncable-v1-ext-json";

    @TestHTTPResource("/")
    URI base;

    @Inject
    Vertx vertx;

    @Inject
    Cable cable;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CableRuntimeConfig config;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void anActionBroadcastsToTheOthersOfItsSubscription() throws Exception {
        try (WsClient sender = WsClient.connect(vertx, base, "/cable", ActionCableProtocolTest.V1);
                WsClient other = WsClient.connect(vertx, base, "/cable", ActionCableProtocolTest.V1)) {
            subscribe(sender);
            subscribe(other);
            String sensor = "shared-" + System.nanoTime();
            sender.send(ActionCableProtocolTest.perform(READINGS, new JsonObject().put("action", "share")
                    .put("sensor", sensor).put("temperature", "3.5C")));
            other.awaitFrame(ActionCableProtocolTest.data(READINGS,
                    "{\"sensor\":\"" + sensor + "\",\"temperature\":\"3.5C\"}"));
            fence(sender, other, ReadingChannel.STREAM);
            assertThat(sender.received).noneMatch(frame -> frame.contains(sensor));
        }
    }

    @Test
    void httpExcludeSocketSkipsTheSessionOfTheWelcomeSid() throws Exception {
        try (WsClient excluded = WsClient.connect(vertx, base, "/cable", EXT);
                WsClient other = WsClient.connect(vertx, base, "/cable", ActionCableProtocolTest.V1)) {
            await().atMost(Collector.TIMEOUT).until(() -> !excluded.received.isEmpty());
            JsonObject welcome = new JsonObject(excluded.received.get(0));
            assertThat(welcome.getString("type")).isEqualTo("welcome");
            String sid = welcome.getString("sid");
            assertThat(sid).isNotBlank();
            subscribe(excluded);
            subscribe(other);

            String text = "http-" + System.nanoTime();
            String body = "{\"stream\":\"" + ReadingChannel.STREAM + "\",\"data\":\"{\\\"sensor\\\":\\\"" + text
                    + "\\\"}\",\"meta\":{\"exclude_socket\":\"" + sid + "\"}}";
            assertThat(new GemBroadcaster(base, GemBroadcaster.SECRET).post(body).statusCode()).isEqualTo(201);
            await().atMost(Collector.TIMEOUT).until(() -> other.received.stream().anyMatch(f -> f.contains(text)));
            fence(excluded, other, ReadingChannel.STREAM);
            assertThat(excluded.received).noneMatch(frame -> frame.contains(text));

            // A meta.exclude_socket that is not a string is refused, not ignored.
            assertThat(new GemBroadcaster(base, GemBroadcaster.SECRET).post("{\"stream\":\"x\",\"data\":\"1\","
                    + "\"meta\":{\"exclude_socket\":42}}").statusCode()).isEqualTo(400);
        }
    }

    @Test
    void aBroadcastFromAnotherNodeSkipsTheSessionHere() throws Exception {
        // A second engine with its own writer on the same database: the exclusion reaches this node only in the row.
        CableEngine nodeTwo = DatabaseNodes.node("node-two-exclude", () -> dataSource, SqlDialect.forDbKind(dbKind),
                config);
        nodeTwo.start();
        try (WsClient excluded = WsClient.connect(vertx, base, "/cable", EXT);
                WsClient other = WsClient.connect(vertx, base, "/cable", ActionCableProtocolTest.V1)) {
            await().atMost(Collector.TIMEOUT).until(() -> !excluded.received.isEmpty());
            String sid = new JsonObject(excluded.received.get(0)).getString("sid");
            subscribe(excluded);
            subscribe(other);
            String text = "node-two-" + System.nanoTime();
            nodeTwo.excluding(sid).broadcast(ReadingChannel.STREAM, "{\"sensor\":\"" + text + "\"}")
                    .toCompletableFuture().get(60, TimeUnit.SECONDS);
            await().atMost(Collector.TIMEOUT).until(() -> other.received.stream().anyMatch(f -> f.contains(text)));
            fence(excluded, other, ReadingChannel.STREAM);
            assertThat(excluded.received).noneMatch(frame -> frame.contains(text));
        } finally {
            nodeTwo.stop();
        }
    }

    @Test
    void aWebSocketsNextConnectionExcludesItsOwnId() throws Exception {
        String channel = Channels.unique("others");
        try (WsClient sender = WsClient.connect(vertx, base, "/feed");
                WsClient other = WsClient.connect(vertx, base, "/feed")) {
            sender.send("start:" + channel);
            sender.awaitFrame("started:" + channel);
            other.send("start:" + channel);
            other.awaitFrame("started:" + channel);
            sender.send("others:" + channel);
            sender.awaitFrame("sent:" + channel);
            await().atMost(Collector.TIMEOUT).until(() -> other.received.stream().anyMatch(f -> f.startsWith("from ")));
            fence(sender, other, channel);
            assertThat(sender.received).noneMatch(frame -> frame.startsWith("from "));
        }
    }

    @Test
    void inJvmListenersAreNeverExcludedAndBinaryCannotExclude() throws Exception {
        String channel = Channels.unique("others-jvm");
        Collector listener = new Collector();
        var subscription = cable.subscribe(channel, listener);
        try {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.excluding("some-session").broadcast(channel, "to others").toCompletableFuture()
                    .get(60, TimeUnit.SECONDS);
            // The stored prefix never reaches a subscriber: the payload is the application's.
            assertThat(listener.awaitCount(1).texts()).containsExactly("to others");
            assertThat(cable.excluding(null)).isSameAs(cable);
            var binary = cable.excluding("some-session").broadcast(channel, new byte[] { 1 }).toCompletableFuture();
            await().atMost(Collector.TIMEOUT).until(binary::isDone);
            assertThat(binary).isCompletedExceptionally();
            assertThat(binary.handle((ok, failure) -> failure).get()).isInstanceOf(CableException.InvalidMessage.class);
        } finally {
            subscription.close();
        }
    }

    private static void subscribe(WsClient client) throws Exception {
        client.send(ActionCableProtocolTest.subscribe(READINGS));
        await().atMost(Collector.TIMEOUT).until(() -> client.received.stream()
                .anyMatch(f -> f.contains("confirm_subscription") && f.contains("ReadingChannel")));
    }

    /** A broadcast to everyone on {@code channel}: once both clients have it, whatever came before has arrived. */
    private void fence(WsClient a, WsClient b, String channel) throws Exception {
        String marker = "fence-" + System.nanoTime();
        cable.broadcast(channel, "{\"fence\":\"" + marker + "\"}").toCompletableFuture().get(60, TimeUnit.SECONDS);
        await().atMost(Collector.TIMEOUT).until(() -> a.received.stream().anyMatch(f -> f.contains(marker))
                && b.received.stream().anyMatch(f -> f.contains(marker)));
    }
}
