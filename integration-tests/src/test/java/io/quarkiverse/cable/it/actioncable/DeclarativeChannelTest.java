package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.it.declarative.DeclarativeChannel;
import io.quarkiverse.cable.it.streams.StreamAuthorizationTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A channel written with {@code @OnSubscribe}, {@code @OnUnsubscribe}, {@code @ChannelParam} and {@code @CableAction}
 * methods taking parameters ({@link DeclarativeChannel}), over a real WebSocket: each parameter type binds, what cannot
 * bind rejects the subscription with a reason in {@code reject_subscription}, as does the channel's own refusal and a
 * mistyped channel name; the unsubscription method runs on unsubscribe and on disconnect; the subscription method runs
 * in a request context with the connection's identity.
 */
@QuarkusTest
@DatabaseIndependent
public class DeclarativeChannelTest {

    static final String V1 = "actioncable-v1-json";
    static final Map<String, String> ALICE = StreamAuthorizationTest.ALICE;
    static final UUID ID = UUID.fromString("6a2f41a3-c54c-4c1a-9a8e-2d3d6e1f0b7a");

    @TestHTTPResource("/")
    URI base;

    /** An identifier with every required parameter, numbers given as JSON numbers. */
    private static JsonObject params(String room) {
        return new JsonObject().put("channel", "DeclarativeChannel").put("room", room).put("count", 7)
                .put("big", 9_000_000_000L).put("flag", true).put("id", ID.toString());
    }

    @Test
    void everyParameterKindIsBoundAndTheMethodSeesTheIdentityInARequestContext() throws Exception {
        String room = "bind" + System.nanoTime();
        // Strings where numbers and booleans are expected decode too (Rails identifiers often carry them so), and the
        // optional record and list are given.
        String identifier = params(room).put("count", "8").put("flag", "false")
                .put("filter", new JsonObject().put("kind", "gt").put("min", 3))
                .put("tags", new JsonArray().add("a").add("b")).encode();
        try (WsClient alice = connected(ALICE)) {
            alice.send(ActionCableProtocolTest.subscribe(identifier));
            alice.awaitFrame(ActionCableProtocolTest.confirm(identifier));
            JsonObject bound = message(alice, identifier, "room");
            assertThat(bound.getString("room")).isEqualTo(room);
            assertThat(bound.getInteger("count")).isEqualTo(8);
            assertThat(bound.getLong("big")).isEqualTo(9_000_000_000L);
            assertThat(bound.getBoolean("flag")).isFalse();
            assertThat(bound.getString("id")).isEqualTo(ID.toString());
            assertThat(bound.getString("filter")).isEqualTo("gt>3");
            assertThat(bound.getString("tags")).isEqualTo("a,b");
            assertThat(bound.getString("seen")).as("identity parameter and request-scoped bean").matches("alice/\\d+");

            // The optional ones left out are empty.
            String plain = params(room + "-plain").encode();
            alice.send(ActionCableProtocolTest.subscribe(plain));
            alice.awaitFrame(ActionCableProtocolTest.confirm(plain));
            JsonObject defaults = message(alice, plain, "room");
            assertThat(defaults.getInteger("count")).isEqualTo(7);
            assertThat(defaults.getBoolean("flag")).isTrue();
            assertThat(defaults.getString("filter")).isEqualTo("none");
            assertThat(defaults.getString("tags")).isEqualTo("none");

            // Actions: a parameter with a record of the data, and the identity with a parameter and no data.
            alice.send(ActionCableProtocolTest.perform(identifier,
                    new JsonObject().put("action", "say").put("text", "hi")));
            assertThat(message(alice, identifier, "said").getString("said")).isEqualTo(room + ":hi");
            alice.send(ActionCableProtocolTest.perform(identifier, new JsonObject().put("action", "whoami")));
            assertThat(message(alice, identifier, "whoami").getString("whoami")).isEqualTo("alice#8");
        }
    }

    @Test
    void whatCannotBindRejectsTheSubscriptionWithAReason() throws Exception {
        String room = "bad" + System.nanoTime();
        String missing = params(room).put("big", (Object) null).encode();
        JsonObject withoutCount = params(room + "-absent");
        withoutCount.remove("count");
        String absent = withoutCount.encode();
        String notANumber = params(room).put("count", "seven").encode();
        String notAUuid = params(room).put("id", "not-a-uuid").encode();
        String notARecord = params(room).put("filter", "gt").encode();
        // A subscription that binds, on the same connection: its unsubscription on close is the fence after which
        // the rejected ones would have been unsubscribed too, had they been kept.
        String fenceRoom = room + "-fence";
        CompletableFuture<String> fenceLeft = DeclarativeChannel.LEFT.computeIfAbsent(fenceRoom,
                ignored -> new CompletableFuture<>());
        String fence = params(fenceRoom).encode();
        try (WsClient client = connected(ALICE)) {
            for (String identifier : List.of(missing, absent, notANumber, notAUuid, notARecord)) {
                client.send(ActionCableProtocolTest.subscribe(identifier));
            }
            client.awaitFrame(reject(missing, "missing param 'big'"));
            client.awaitFrame(reject(absent, "missing param 'count'"));
            client.awaitFrame(reject(notANumber, "param 'count' does not decode to int"));
            client.awaitFrame(reject(notAUuid, "param 'id' does not decode to UUID"));
            client.awaitFrame(reject(notARecord, "param 'filter' does not decode to Filter"));
            assertThat(client.received).noneMatch(frame -> frame.contains("confirm_subscription"));
            client.send(ActionCableProtocolTest.subscribe(fence));
            client.awaitFrame(ActionCableProtocolTest.confirm(fence));
        }
        assertThat(fenceLeft.get(60, TimeUnit.SECONDS)).isEqualTo(fenceRoom + "/alice");
        // Never subscribed: the unsubscription method did not run for them.
        assertThat(DeclarativeChannel.LEFT).doesNotContainKeys(room, room + "-absent");
    }

    @Test
    void theChannelsRefusalAndAnUnknownChannelRejectWithAReason() throws Exception {
        String closed = params("closed").encode();
        String full = params("full").encode();
        String typo = new JsonObject().put("channel", "DeclarativeChanel").put("room", "x").encode();
        List<String> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(String.valueOf(record.getMessage()));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger("io.quarkiverse.cable");
        logger.addHandler(capture);
        try (WsClient client = connected(ALICE)) {
            client.send(ActionCableProtocolTest.subscribe(closed));
            client.send(ActionCableProtocolTest.subscribe(full));
            client.awaitFrame(reject(closed, "room closed")).awaitFrame(reject(full, "room full"));
            // The unknown channel's line lists the known channels, the closest first. It is rate-limited (one a second
            // per cause): subscribing again until the line shows is what makes this independent of other suites.
            await().atMost(Collector.TIMEOUT).pollInterval(java.time.Duration.ofMillis(500)).until(() -> {
                client.send(ActionCableProtocolTest.subscribe(typo));
                return logged.stream().anyMatch(line -> line.contains("DeclarativeChanel"));
            });
            client.awaitFrame(reject(typo, "unknown channel"));
            assertThat(logged.stream().filter(line -> line.contains("DeclarativeChanel")).findFirst().orElseThrow())
                    .contains("subscribed to no channel DeclarativeChanel")
                    .contains("closest first: DeclarativeChannel, ");
            assertThat(logged).anyMatch(line -> line.contains("rejected by channel DeclarativeChannel: room"));
        } finally {
            logger.removeHandler(capture);
        }
    }

    @Test
    void quarkusSecurityOnTheSubscriptionMethodRejectsWithItsReason() throws Exception {
        String members = new JsonObject().put("channel", "MembersChannel").encode();
        try (WsClient alice = connected(ALICE);
                WsClient victor = connected(CallbackContextTest.VICTOR);
                WsClient anonymous = connected(Map.of())) {
            for (WsClient client : List.of(alice, victor, anonymous)) {
                client.send(ActionCableProtocolTest.subscribe(members));
            }
            alice.awaitFrame(ActionCableProtocolTest.confirm(members));
            victor.awaitFrame(reject(members, "forbidden"));
            anonymous.awaitFrame(reject(members, "unauthorized"));
        }
    }

    @Test
    void theUnsubscriptionMethodRunsOnUnsubscribeAndOnDisconnect() throws Exception {
        String unsubscribed = "unsub" + System.nanoTime();
        String disconnected = "disc" + System.nanoTime();
        CompletableFuture<String> left = DeclarativeChannel.LEFT.computeIfAbsent(unsubscribed,
                ignored -> new CompletableFuture<>());
        CompletableFuture<String> gone = DeclarativeChannel.LEFT.computeIfAbsent(disconnected,
                ignored -> new CompletableFuture<>());
        String first = params(unsubscribed).encode();
        String second = params(disconnected).encode();
        try (WsClient client = connected(ALICE)) {
            client.send(ActionCableProtocolTest.subscribe(first));
            client.send(ActionCableProtocolTest.subscribe(second));
            client.awaitFrame(ActionCableProtocolTest.confirm(first)).awaitFrame(ActionCableProtocolTest.confirm(second));
            client.send(new JsonObject().put("command", "unsubscribe").put("identifier", first).encode());
            assertThat(left.get(60, TimeUnit.SECONDS)).isEqualTo(unsubscribed + "/alice");
            assertThat(gone).isNotDone();
        }
        assertThat(gone.get(60, TimeUnit.SECONDS)).isEqualTo(disconnected + "/alice");
    }

    private WsClient connected(Map<String, String> who) throws Exception {
        WsClient client = WsClient.connectWith(base, "/cable", who, V1);
        client.awaitFrame("{\"type\":\"welcome\"}");
        return client;
    }

    static String reject(String identifier, String reason) {
        return "{\"identifier\":" + Json.encode(identifier) + ",\"type\":\"reject_subscription\",\"reason\":"
                + Json.encode(reason) + "}";
    }

    /** The first message to {@code identifier} that has {@code field}. */
    private static JsonObject message(WsClient client, String identifier, String field) {
        await().atMost(Collector.TIMEOUT).until(() -> find(client, identifier, field) != null);
        return find(client, identifier, field);
    }

    private static JsonObject find(WsClient client, String identifier, String field) {
        for (String frame : client.received) {
            JsonObject parsed = new JsonObject(frame);
            if (identifier.equals(parsed.getString("identifier")) && parsed.getValue("message") instanceof JsonObject m
                    && m.containsKey(field)) {
                return m;
            }
        }
        return null;
    }
}
