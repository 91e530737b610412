package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.TurboStreams;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/** The {@code actioncable-v1-json} endpoint, frame by frame, with a raw WebSocket client. */
@QuarkusTest
@DatabaseIndependent
public class ActionCableProtocolTest {

    public static final String V1 = "actioncable-v1-json";
    static final String UNSUPPORTED = "actioncable-unsupported";

    @TestHTTPResource("/")
    URI base;

    @Inject
    Vertx vertx;

    @Inject
    Cable cable;

    @Inject
    TurboStreams turbo;

    public static String subscribe(String identifier) {
        return new JsonObject().put("command", "subscribe").put("identifier", identifier).encode();
    }

    static String perform(String identifier, JsonObject data) {
        return new JsonObject().put("command", "message").put("identifier", identifier).put("data", data.encode())
                .encode();
    }

    public static String confirm(String identifier) {
        return "{\"identifier\":" + Json.encode(identifier) + ",\"type\":\"confirm_subscription\"}";
    }

    static String reject(String identifier) {
        return "{\"identifier\":" + Json.encode(identifier) + ",\"type\":\"reject_subscription\"}";
    }

    static String data(String identifier, String messageJson) {
        return "{\"identifier\":" + Json.encode(identifier) + ",\"message\":" + messageJson + "}";
    }

    @Test
    void negotiatesTheProtocolWelcomesAndPings() throws Exception {
        try (WsClient client = WsClient.connect(vertx, base, "/cable", V1, UNSUPPORTED)) {
            assertThat(client.subProtocol).isEqualTo(V1);
            client.awaitFrame("{\"type\":\"welcome\"}");
            await().atMost(Collector.TIMEOUT).until(() -> client.received.stream()
                    .anyMatch(frame -> frame.matches("\\{\"type\":\"ping\",\"message\":\\d+}")));
            assertThat(client.received.get(0)).isEqualTo("{\"type\":\"welcome\"}");
        }
    }

    @Test
    void unknownProtocolVersionGetsTheUnsupportedSentinel() throws Exception {
        try (WsClient client = WsClient.connect(vertx, base, "/cable", "actioncable-v9-json", UNSUPPORTED)) {
            assertThat(client.subProtocol).isEqualTo(UNSUPPORTED);
            client.closeStatus.get(60, TimeUnit.SECONDS);
            assertThat(client.received).isEmpty();
        }
    }

    @Test
    void noProtocolHeaderIsServedAsV1Json() throws Exception {
        try (WsClient client = WsClient.connect(vertx, base, "/cable")) {
            client.awaitFrame("{\"type\":\"welcome\"}");
        }
    }

    @Test
    void subscribeConfirmsOnceThenBroadcastsAndActionsFlow() throws Exception {
        String identifier = "{\"channel\":\"ChatChannel\",\"room\":\"proto-1\"}";
        try (WsClient client = WsClient.connect(vertx, base, "/cable?user=alice", V1, UNSUPPORTED)) {
            client.awaitFrame("{\"type\":\"welcome\"}");
            client.send(subscribe(identifier));
            client.send(subscribe(identifier));
            client.awaitFrame(confirm(identifier));
            cable.broadcast("chat:proto-1", "{\"text\":\"from rest\"}").toCompletableFuture().get(60, TimeUnit.SECONDS);
            client.awaitFrame(data(identifier, "{\"text\":\"from rest\"}"));
            client.send(perform(identifier, new JsonObject().put("text", "hi").put("action", "speak")));
            client.awaitFrame(data(identifier, "{\"text\":\"hi\",\"user\":\"alice\"}"));
            client.send(perform(identifier, new JsonObject().put("text", "me").put("action", "echo")));
            client.awaitFrame(data(identifier, "{\"echo\":\"me\"}"));
            assertThat(client.received).filteredOn(frame -> frame.equals(confirm(identifier))).hasSize(1);

            client.send("{\"command\":\"unsubscribe\",\"identifier\":" + Json.encode(identifier) + "}");
            // A marker after the unsubscribe: once it is confirmed, the unsubscribe was handled.
            String marker = "{\"channel\":\"ChatChannel\",\"room\":\"proto-1-marker\"}";
            client.send(subscribe(marker));
            client.awaitFrame(confirm(marker));
            cable.broadcast("chat:proto-1", "{\"text\":\"after\"}").toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.broadcast("chat:proto-1-marker", "{\"text\":\"marker\"}").toCompletableFuture().get(60,
                    TimeUnit.SECONDS);
            client.awaitFrame(data(marker, "{\"text\":\"marker\"}"));
            assertThat(client.received).doesNotContain(data(identifier, "{\"text\":\"after\"}"));
        }
    }

    @Test
    void identifiersAreEchoedByteForByte() throws Exception {
        // Two spellings of one logical subscription (Rails keeps insertion order, AnyCable sorts keys): both are
        // separate subscriptions, each answered with its own string.
        String rails = "{\"channel\":\"ChatChannel\",\"room\":\"proto-2\",\"a\":1}";
        String anycable = "{\"a\":1,\"channel\":\"ChatChannel\",\"room\":\"proto-2\"}";
        try (WsClient client = WsClient.connect(vertx, base, "/cable", V1)) {
            client.awaitFrame("{\"type\":\"welcome\"}");
            client.send(subscribe(rails));
            client.send(subscribe(anycable));
            client.awaitFrame(confirm(rails)).awaitFrame(confirm(anycable));
            cable.broadcast("chat:proto-2", "[1,2,3]").toCompletableFuture().get(60, TimeUnit.SECONDS);
            client.awaitFrame(data(rails, "[1,2,3]")).awaitFrame(data(anycable, "[1,2,3]"));
        }
    }

    @Test
    void rejectsUnknownChannelsAndRejectedSubscriptions() throws Exception {
        try (WsClient client = WsClient.connect(vertx, base, "/cable", V1)) {
            client.awaitFrame("{\"type\":\"welcome\"}");
            String unknown = "{\"channel\":\"NoSuchChannel\"}";
            String forbidden = "{\"channel\":\"ChatChannel\",\"room\":\"forbidden\"}";
            String notJson = "not json";
            client.send(subscribe(unknown));
            client.send(subscribe(forbidden));
            client.send(subscribe(notJson));
            // A channel nobody declared is rejected with a reason (an extra field Action Cable clients ignore); a
            // channel's plain reject() and an identifier that is not JSON get the plain frame, as Rails sends it.
            client.awaitFrame(DeclarativeChannelTest.reject(unknown, "unknown channel")).awaitFrame(reject(forbidden))
                    .awaitFrame(reject(notJson));
        }
    }

    @Test
    void unauthorizedConnectionIsToldNotToReconnect() throws Exception {
        try (WsClient client = WsClient.connect(vertx, base, "/cable?user=mallory", V1)) {
            client.awaitFrame("{\"type\":\"disconnect\",\"reason\":\"unauthorized\",\"reconnect\":false}");
            assertThat(client.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1000);
            assertThat(client.received).doesNotContain("{\"type\":\"welcome\"}");
        }
    }

    @Test
    void serverDisconnectCarriesAnExplicitReconnectFlag() throws Exception {
        try (WsClient client = WsClient.connect(vertx, base, "/cable", V1)) {
            client.awaitFrame("{\"type\":\"welcome\"}");
            io.restassured.RestAssured.given().queryParam("reconnect", true).post("/cable-admin/disconnect").then()
                    .statusCode(200);
            client.awaitFrame("{\"type\":\"disconnect\",\"reason\":\"remote\",\"reconnect\":true}");
            client.closeStatus.get(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void turboStreamsAcceptOnlySignedNames() throws Exception {
        String signed = turbo.signedStreamName("proto-turbo");
        String good = new JsonObject().put("channel", TurboStreams.CHANNEL).put("signed_stream_name", signed).encode();
        String tampered = new JsonObject().put("channel", TurboStreams.CHANNEL)
                .put("signed_stream_name", signed.substring(0, signed.length() - 1)
                        + (signed.endsWith("0") ? "1" : "0"))
                .encode();
        String unsigned = new JsonObject().put("channel", TurboStreams.CHANNEL)
                .put("signed_stream_name", "proto-turbo").encode();
        try (WsClient client = WsClient.connect(vertx, base, "/cable", V1)) {
            client.awaitFrame("{\"type\":\"welcome\"}");
            client.send(subscribe(good));
            client.send(subscribe(tampered));
            client.send(subscribe(unsigned));
            client.awaitFrame(confirm(good)).awaitFrame(reject(tampered)).awaitFrame(reject(unsigned));
            turbo.broadcast("append", "messages", "<p>hi & bye</p>", "proto-turbo").toCompletableFuture().get(60,
                    TimeUnit.SECONDS);
            client.awaitFrame(data(good, Json.encode(
                    "<turbo-stream action=\"append\" target=\"messages\"><template><p>hi & bye</p></template></turbo-stream>")));
        }
        assertThat(turbo.verify(signed)).isEqualTo("proto-turbo");
    }

    /**
     * A burst of malformed frames, within the command burst (quarkus.cable.limits.command-burst, 200): a client
     * sending more at once is disconnected by the rate limit (AbuseTest), which is not this test's subject.
     */
    @Test
    void aBurstOfMalformedFramesDisturbsNoOne() throws Exception {
        String identifier = "{\"channel\":\"ChatChannel\",\"room\":\"proto-bad\"}";
        try (WsClient good = WsClient.connect(vertx, base, "/cable", V1);
                WsClient bad = WsClient.connect(vertx, base, "/cable", V1)) {
            good.awaitFrame("{\"type\":\"welcome\"}");
            good.send(subscribe(identifier));
            good.awaitFrame(confirm(identifier));
            bad.awaitFrame("{\"type\":\"welcome\"}");
            bad.send(subscribe(identifier));
            bad.awaitFrame(confirm(identifier));
            Random random = new Random(4);
            List<String> shapes = List.of("", "{", "}", "[]", "null", "42", "\"text\"", "{\"command\":1}",
                    "{\"identifier\":\"x\"}", "{\"command\":\"subscribe\"}", "{\"command\":\"subscribe\",\"identifier\":{}}",
                    "{\"command\":\"subscribe\",\"identifier\":42}", "{\"command\":\"fly\",\"identifier\":\"x\"}",
                    "{\"command\":\"message\",\"identifier\":" + Json.encode(identifier) + ",\"data\":{}}",
                    "{\"command\":\"message\",\"identifier\":" + Json.encode(identifier)
                            + ",\"data\":\"{\\\"action\\\":\\\"nope\\\"}\"}",
                    "{\"command\":\"message\",\"identifier\":" + Json.encode(identifier) + ",\"data\":\"not json\"}",
                    "{\"command\":\"message\",\"identifier\":" + Json.encode(identifier) + ",\"data\":\"{\\\"action\\\":7}\"}",
                    "{\"command\":\"message\",\"identifier\":\"{\\\"channel\\\":\\\"Other\\\"}\",\"data\":\"{}\"}",
                    "{\"command\":\"unsubscribe\",\"identifier\":\"{}\"}",
                    "{\"command\":\"subscribe\",\"identifier\":\"{\\\"channel\\\":[1]}\"}");
            for (int i = 0; i < 180; i++) {
                String frame = switch (i % 3) {
                    case 0 -> shapes.get(random.nextInt(shapes.size()));
                    case 1 -> randomText(random);
                    default -> {
                        String shape = shapes.get(random.nextInt(shapes.size()));
                        yield shape.isEmpty() ? "{" : shape.substring(0, random.nextInt(shape.length()));
                    }
                };
                bad.send(frame);
            }
            // The bad client is still served in order after its garbage, and so is everyone else.
            String after = "{\"channel\":\"ChatChannel\",\"room\":\"proto-bad-after\"}";
            bad.send(subscribe(after));
            bad.awaitFrame(confirm(after));
            cable.broadcast("chat:proto-bad", "{\"text\":\"still here\"}").toCompletableFuture().get(60,
                    TimeUnit.SECONDS);
            good.awaitFrame(data(identifier, "{\"text\":\"still here\"}"));
            bad.awaitFrame(data(identifier, "{\"text\":\"still here\"}"));
            assertThat(good.received).filteredOn(frame -> frame.startsWith("{\"identifier\"")).hasSize(2);
        }
        // A newcomer after the storm subscribes and receives.
        String identifier2 = "{\"channel\":\"ChatChannel\",\"room\":\"proto-bad-2\"}";
        try (WsClient late = WsClient.connect(vertx, base, "/cable", V1)) {
            late.awaitFrame("{\"type\":\"welcome\"}");
            late.send(subscribe(identifier2));
            late.awaitFrame(confirm(identifier2));
            late.send(perform(identifier2, new JsonObject().put("text", "ok").put("action", "speak")));
            late.awaitFrame(data(identifier2, "{\"text\":\"ok\",\"user\":\"anonymous\"}"));
        }
    }

    @Test
    void oversizedFrameClosesOnlyThatConnection() throws Exception {
        String identifier = "{\"channel\":\"ChatChannel\",\"room\":\"proto-big\"}";
        try (WsClient good = WsClient.connect(vertx, base, "/cable", V1);
                WsClient big = WsClient.connect(vertx, base, "/cable", V1)) {
            good.awaitFrame("{\"type\":\"welcome\"}");
            good.send(subscribe(identifier));
            good.awaitFrame(confirm(identifier));
            big.awaitFrame("{\"type\":\"welcome\"}");
            big.send("{\"command\":\"subscribe\",\"identifier\":\"" + "x".repeat(70_000) + "\"}");
            assertThat(big.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1009);
            cable.broadcast("chat:proto-big", "{\"text\":\"fine\"}").toCompletableFuture().get(60, TimeUnit.SECONDS);
            good.awaitFrame(data(identifier, "{\"text\":\"fine\"}"));
        }
    }

    private static String randomText(Random random) {
        char[] chars = new char[random.nextInt(64)];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = "{}[]\",:\\ abcnul0123456789command identifier".charAt(random.nextInt(43));
        }
        return new String(chars);
    }
}
