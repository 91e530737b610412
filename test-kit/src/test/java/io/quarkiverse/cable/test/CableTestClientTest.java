package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;

/**
 * The client against a scripted Action Cable server (a real Vert.x WebSocket server on a free port): what the upgrade
 * request carries for identification, the frames the commands make, and how the server's answers are read (the
 * rejection's reason, the refusals). The cable itself is in integration-tests' CableTestKitTest.
 */
class CableTestClientTest {

    private static Vertx vertx;
    private static HttpServer server;
    private static URI base;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1")
                .setWebSocketSubProtocols(List.of(CableTestClient.V1_JSON, CableTestClient.EXT_JSON)))
                .requestHandler(request -> {
                    if (request.path().startsWith("/denied")) {
                        request.response().setStatusCode(403).end();
                    } else {
                        request.toWebSocket().onSuccess(CableTestClientTest::serve);
                    }
                }).listen(0).toCompletionStage().toCompletableFuture().get();
        base = URI.create("http://127.0.0.1:" + server.actualPort() + "/");
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get();
    }

    /**
     * The script: refuses user {@code nobody} as the cable does, welcomes anyone else; confirms a subscription
     * (rejects channel {@code Full} with a reason, {@code Closed} without one) and transmits to it what the upgrade
     * request carried; answers each other command with it as the subscription's message.
     */
    private static void serve(ServerWebSocket ws) {
        if ("user=nobody".equals(ws.query())) {
            ws.writeTextMessage("{\"type\":\"disconnect\",\"reason\":\"unauthorized\",\"reconnect\":false}")
                    .onComplete(done -> ws.close());
            return;
        }
        ws.writeTextMessage("{\"type\":\"welcome\"}");
        ws.textMessageHandler(text -> {
            JsonObject command = new JsonObject(text);
            String identifier = command.getString("identifier");
            if (!"subscribe".equals(command.getString("command"))) {
                ws.writeTextMessage(new JsonObject().put("identifier", identifier).put("message", command).encode());
                return;
            }
            String channel = new JsonObject(identifier).getString("channel");
            JsonObject answer = new JsonObject().put("identifier", identifier);
            switch (channel) {
                case "Full" -> ws.writeTextMessage(answer.put("type", "reject_subscription").put("reason", "full").encode());
                case "Closed" -> ws.writeTextMessage(answer.put("type", "reject_subscription").encode());
                default -> {
                    ws.writeTextMessage(answer.copy().put("type", "confirm_subscription").encode());
                    ws.writeTextMessage(answer.put("message", new JsonObject().put("path", ws.path())
                            .put("query", ws.query()).put("cookie", ws.headers().get("Cookie"))
                            .put("header", ws.headers().get("X-Test"))
                            .put("protocols", ws.headers().get("Sec-WebSocket-Protocol"))).encode());
                }
            }
        });
    }

    @Test
    void theUpgradeCarriesTheIdentityAsGiven() {
        try (CableTestClient client = CableTestClient.builder().base(base).queryParam("user", "ann lee")
                .queryParam("room", "a&b").cookie("session", "s1").cookie("theme", "dark").header("X-Test", "yes")
                .token("t0ken").connect()) {
            JsonObject request = client.subscribe("Echo").awaitTransmission(message -> message.containsKey("path"));
            assertThat(request.getString("path")).isEqualTo("/cable");
            assertThat(request.getString("query")).isEqualTo("user=ann+lee&room=a%26b");
            assertThat(request.getString("cookie")).isEqualTo("session=s1; theme=dark");
            assertThat(request.getString("header")).isEqualTo("yes");
            assertThat(request.getString("protocols")).isEqualTo("actioncable-v1-json, anycable-token.t0ken");
        }
    }

    @Test
    void theExtendedProtocolIsOfferedWhenAskedFor() {
        try (CableTestClient client = CableTestClient.builder().base(base).extendedProtocol().connect()) {
            assertThat(client.subscribe("Echo").awaitTransmission(message -> message.containsKey("protocols"))
                    .getString("protocols")).isEqualTo("actioncable-v1-ext-json");
        }
    }

    @Test
    void commandsAreTheFramesOfTheProtocol() {
        try (CableTestClient client = CableTestClient.builder().base(base).connect()) {
            CableTestSubscription echo = client.subscribe("Echo", Map.of("room", 7));
            assertThat(echo.identifier()).isEqualTo("{\"channel\":\"Echo\",\"room\":7}");

            echo.perform("speak", Map.of("text", "hi"));
            JsonObject message = echo.awaitTransmission(sent -> "message".equals(sent.getString("command")));
            assertThat(new JsonObject(message.getString("data"))).as("a string of JSON, with the action")
                    .isEqualTo(new JsonObject().put("text", "hi").put("action", "speak"));

            echo.whisper(Map.of("typing", true));
            assertThat(echo.awaitTransmission(sent -> "whisper".equals(sent.getString("command"))).getJsonObject("data"))
                    .as("JSON as it is").isEqualTo(new JsonObject().put("typing", true));

            echo.join("ann", Map.of("name", "Ann"));
            assertThat(echo.awaitTransmission(sent -> "join".equals(sent.getString("command"))).getJsonObject("presence"))
                    .isEqualTo(new JsonObject().put("id", "ann").put("info", new JsonObject().put("name", "Ann")));

            echo.leave();
            echo.awaitTransmission(sent -> "leave".equals(sent.getString("command")));
            echo.unsubscribe();
            echo.awaitTransmission(sent -> "unsubscribe".equals(sent.getString("command")));
        }
    }

    @Test
    void aRejectionGivesItsReasonWhenTheFrameHasOne() {
        try (CableTestClient client = CableTestClient.builder().base(base).connect()) {
            assertThat(client.trySubscribe("Full", Map.of()).awaitRejection()).isEqualTo("full");
            assertThat(client.trySubscribe("Closed", Map.of()).awaitRejection()).isNull();
            assertThatThrownBy(() -> client.subscribe("Full")).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("was rejected (full)");
            assertThatThrownBy(() -> client.trySubscribe("Echo", Map.of("channel", "Other")))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void refusalsAreReportedWithWhy() {
        assertThat(CableTestClient.builder().base(base).queryParam("user", "nobody").connectRefused())
                .isEqualTo("unauthorized");
        assertThat(CableTestClient.builder().base(base.resolve("/denied/")).connectRefused()).isEqualTo("HTTP 403");
        assertThatThrownBy(() -> CableTestClient.builder().base(base.resolve("/denied/")).connect())
                .isInstanceOf(AssertionError.class).hasMessageContaining("HTTP 403");
        assertThatThrownBy(() -> CableTestClient.builder().base(base).connectRefused())
                .isInstanceOf(AssertionError.class).hasMessageContaining("it was welcomed");
    }

    @Test
    void aWaitIsBoundedAndListsWhatArrived() {
        try (CableTestClient client = CableTestClient.builder().base(base).timeout(Duration.ofMillis(300)).connect()) {
            CableTestSubscription echo = client.subscribe("Echo");
            assertThatThrownBy(() -> echo.awaitTransmission(message -> message.containsKey("never")))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("within PT0.3S")
                    .hasMessageContaining("confirm_subscription");
        }
        try (CableTestClient client = CableTestClient.builder().base(base).connect()) {
            CableTestSubscription echo = client.subscribe("Echo");
            long started = System.nanoTime();
            assertThatThrownBy(() -> echo.awaitTransmission(message -> message.containsKey("never"), Duration.ofMillis(200)))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("within PT0.2S");
            assertThat(System.nanoTime() - started).as("the call's bound, not the client's 30 s").isLessThan(10_000_000_000L);
        }
        assertThatThrownBy(() -> CableTestClient.builder().timeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theMountPathGoesUnderTheBasePath() {
        assertThat(CableTestClient.Builder.servedPath("/", "/cable")).isEqualTo("/cable");
        assertThat(CableTestClient.Builder.servedPath("/app/", "cable")).isEqualTo("/app/cable");
        assertThat(CableTestClient.Builder.servedPath("", "/cable")).isEqualTo("/cable");
    }
}
