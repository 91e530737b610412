package io.quarkiverse.cable.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.TurboStreams;
import io.quarkiverse.cable.test.BroadcastCapture;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.websockets.next.BasicWebSocketConnector;
import io.quarkus.websockets.next.WebSocketClientConnection;
import io.restassured.RestAssured;
import io.vertx.core.json.JsonObject;

/** The Action Cable page's channels, identification and Turbo Streams, through the actioncable-v1-json protocol. */
@QuarkusTest
class ActionCablePagesTest {

    private static final Pattern SIGNED = Pattern.compile("signed-stream-name=\"([^\"]+)\"");

    @Inject
    Cable cable;

    @Inject
    Sessions sessions;

    @Inject
    TurboRoom turboRoom;

    @Inject
    TurboStreams turbo;

    @Inject
    Instance<BasicWebSocketConnector> connectors;

    @TestHTTPResource("/")
    URI base;

    @Test
    void chatChannelSpeaksEchoesAndRejects() {
        Client alice = new Client(sessions.login("alice"));
        try {
            String lobby = alice.subscribe(new JsonObject().put("channel", "ChatChannel").put("room", "lobby"));
            alice.perform(lobby, new JsonObject().put("action", "speak").put("text", "hi"));
            JsonObject spoken = alice.await(frame -> lobby.equals(frame.getString("identifier"))
                    && frame.containsKey("message")).getJsonObject("message");
            assertThat(spoken.getString("text")).isEqualTo("hi");
            assertThat(spoken.getString("user")).as("the identification's user").isEqualTo("alice");

            alice.perform(lobby, new JsonObject().put("action", "echo").put("text", "only me"));
            alice.await(frame -> frame.containsKey("message") && frame.getJsonObject("message") != null
                    && "only me".equals(frame.getJsonObject("message").getString("text")));

            String noRoom = new JsonObject().put("channel", "ChatChannel").encode();
            alice.send(new JsonObject().put("command", "subscribe").put("identifier", noRoom));
            alice.await(frame -> "reject_subscription".equals(frame.getString("type"))
                    && noRoom.equals(frame.getString("identifier"))
                    && "missing param 'room'".equals(frame.getString("reason")));
            String blank = new JsonObject().put("channel", "ChatChannel").put("room", " ").encode();
            alice.send(new JsonObject().put("command", "subscribe").put("identifier", blank));
            alice.await(frame -> "reject_subscription".equals(frame.getString("type"))
                    && blank.equals(frame.getString("identifier")) && "empty room".equals(frame.getString("reason")));
        } finally {
            alice.close();
        }
    }

    @Test
    void aChannelHandlerReadsItsParamsAndRejectsWithAReason() {
        Client carol = new Client(sessions.login("carol"));
        try {
            carol.subscribe(new JsonObject().put("channel", "NoticeChannel").put("topic", "billing"));
            String noTopic = new JsonObject().put("channel", "NoticeChannel").encode();
            carol.send(new JsonObject().put("command", "subscribe").put("identifier", noTopic));
            carol.await(frame -> "reject_subscription".equals(frame.getString("type"))
                    && noTopic.equals(frame.getString("identifier")) && "missing topic".equals(frame.getString("reason")));
        } finally {
            carol.close();
        }
    }

    @Test
    void connectionsWithoutASessionAreUnauthorized() {
        Client stranger = new Client(null);
        try {
            stranger.await(frame -> "disconnect".equals(frame.getString("type"))
                    && "unauthorized".equals(frame.getString("reason")));
        } finally {
            stranger.close();
        }
    }

    @Test
    void aTypedActionBroadcastsInItsTransaction() {
        Client bob = new Client(sessions.login("bob"));
        try (BroadcastCapture capture = BroadcastCapture.channel("todos")) {
            String todos = bob.subscribe(new JsonObject().put("channel", "TodoChannel"));
            bob.perform(todos, new JsonObject().put("action", "add").put("title", "bread"));
            JsonObject item = new JsonObject(capture.await(1).get(0).text());
            assertThat(item.getString("title")).isEqualTo("bread");
            assertThat(item.getLong("id")).as("stored before the broadcast was sent").isNotNull();
        } finally {
            bob.close();
        }
    }

    @Test
    void turboStreamSourceTagAndBroadcast() {
        try (BroadcastCapture capture = BroadcastCapture.channel("room:42")) {
            String tag = turboRoom.post("<b>hi</b>");
            assertThat(tag).startsWith("<turbo-cable-stream-source channel=\"Turbo::StreamsChannel\"");
            Matcher signed = SIGNED.matcher(tag);
            assertThat(signed.find()).isTrue();
            assertThat(turbo.verify(signed.group(1))).isEqualTo("room:42");
            assertThat(capture.await(1).get(0).text()).isEqualTo("<turbo-stream action=\"append\" target=\"messages\">"
                    + "<template><p>&lt;b&gt;hi&lt;/b&gt;</p></template></turbo-stream>");
        }
    }

    @Test
    void aTurboPageCarriesItsCursor() {
        WebSocketPagesTest.join(cable.broadcast("room:7", "before the page"));
        QuarkusTransaction.requiringNew().run(() -> {
            Message message = new Message();
            message.room = "7";
            message.text = "stored";
            message.persist();
        });
        Optional<String> cursor = Optional.of(
                io.quarkiverse.cable.StreamPosition.cursor(cable.position("room:7")));
        String page = RestAssured.get("/room-pages/7").then().statusCode(200).extract().asString();
        assertThat(page).startsWith("<p>stored</p><turbo-cable-stream-source channel=\"Turbo::StreamsChannel\"")
                .contains("data-cable-cursor=\"" + cursor.get() + "\"");
    }

    /** An Action Cable client (actioncable-v1-json) whose frames the test awaits. */
    final class Client {

        final List<JsonObject> frames = new CopyOnWriteArrayList<>();
        final WebSocketClientConnection connection;

        Client(String session) {
            BasicWebSocketConnector connector = connectors.get().baseUri(base).path("/cable")
                    .addSubprotocol("actioncable-v1-json")
                    .executionModel(BasicWebSocketConnector.ExecutionModel.NON_BLOCKING) // in order
                .onTextMessage((c, text) -> frames.add(new JsonObject(text)));
            if (session != null) {
                connector.addHeader("Cookie", "session=" + session);
            }
            connection = connector.connectAndAwait();
        }

        String subscribe(JsonObject channel) {
            await(frame -> "welcome".equals(frame.getString("type")));
            String identifier = channel.encode();
            send(new JsonObject().put("command", "subscribe").put("identifier", identifier));
            await(frame -> "confirm_subscription".equals(frame.getString("type"))
                    && identifier.equals(frame.getString("identifier")));
            return identifier;
        }

        void perform(String identifier, JsonObject data) {
            send(new JsonObject().put("command", "message").put("identifier", identifier).put("data", data.encode()));
        }

        void send(JsonObject command) {
            connection.sendTextAndAwait(command.encode());
        }

        JsonObject await(java.util.function.Predicate<JsonObject> wanted) {
            return org.awaitility.Awaitility.await().atMost(30, TimeUnit.SECONDS)
                    .until(() -> frames.stream().filter(frame -> safe(wanted, frame)).findFirst(), Optional::isPresent)
                    .get();
        }

        private boolean safe(java.util.function.Predicate<JsonObject> wanted, JsonObject frame) {
            try {
                return wanted.test(frame);
            } catch (ClassCastException notThatShape) {
                return false;
            }
        }

        void close() {
            if (!connection.isClosed()) {
                connection.closeAndAwait();
            }
        }
    }
}
