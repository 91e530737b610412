package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableConnectionEvent;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.ChatIdentification;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.it.authz.PrivateChannels;
import io.quarkiverse.cable.it.context.RequestProbe;
import io.quarkiverse.cable.it.streams.StreamAuthorizationTest;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Failure;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * Every application callback runs in a request context, with the identity it acts for, as WebSockets Next runs its
 * endpoints' callbacks: a {@code @RequestScoped} bean injects and {@code SecurityIdentity} is the connection's in an
 * Action Cable identification, {@code subscribed}, an action and a connection event observer, the request's in a
 * {@code StreamAuthorization}; a listener gets a request context and no identity (anonymous). {@code @RolesAllowed} on
 * an action refuses a client without the role with a message on its subscription, and the connection goes on.
 */
@QuarkusTest
@DatabaseIndependent
public class CallbackContextTest {

    static final Map<String, String> ALICE = StreamAuthorizationTest.ALICE; // role member
    static final Map<String, String> VICTOR = StreamAuthorizationTest.basic("victor", "victor-test-password"); // visitor
    static final String V1 = "actioncable-v1-json";
    static final String CHANNEL = new JsonObject().put("channel", "ContextChannel").encode();

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    SecurityIdentity identity;

    @Inject
    RequestProbe probe;

    @TestHTTPResource("/")
    URI base;

    /** What the application's observer of connection events sees, by user. */
    @Singleton
    static class OpenedObserver {
        static final Map<String, String> SEEN = new ConcurrentHashMap<>();

        @Inject
        SecurityIdentity identity;

        @Inject
        RequestProbe probe;

        void opened(@Observes CableConnectionEvent.Opened opened) {
            SEEN.put(opened.identifiers().getOrDefault("user", ""), RequestProbe.seen(identity, probe));
        }
    }

    @Test
    void actionCableCallbacksSeeTheConnectionsIdentityInARequestContext() throws Exception {
        String probed = "ac" + System.nanoTime();
        try (WsClient alice = subscribed(ALICE, probed)) {
            assertThat(ChatIdentification.SEEN.get(probed)).as("identification").matches("alice/\\d+");
            assertThat(OpenedObserver.SEEN.get("alice")).as("connection event observer").matches("alice/\\d+");
            String subscribed = alice.received.stream().filter(frame -> frame.contains("\"subscribed\"")).findFirst()
                    .orElseThrow();
            assertThat(new JsonObject(subscribed).getJsonObject("message").getString("subscribed"))
                    .as("subscribed").matches("alice/\\d+");

            alice.send(message("who"));
            String who = awaitMessage(alice, "who");
            alice.send(message("who"));
            String again = awaitNthMessage(alice, "who", 2);
            assertThat(who).as("an action").matches("alice/\\d+");
            assertThat(again).matches("alice/\\d+");
            assertThat(again).as("a request context per command, not per connection").isNotEqualTo(who);
        }
    }

    @Test
    void rolesAllowedOnAnActionRefusesWithoutTheRoleAndTheConnectionGoesOn() throws Exception {
        try (WsClient victor = subscribed(VICTOR, "v" + System.nanoTime());
                WsClient anonymous = subscribed(Map.of(), "a" + System.nanoTime());
                WsClient alice = subscribed(ALICE, "m" + System.nanoTime())) {
            long forbiddenBefore = engine.stats().failures(Failure.FORBIDDEN);
            victor.send(message("members"));
            victor.awaitFrame(frame(new JsonObject().put("error", "forbidden").put("action", "members")));
            anonymous.send(message("members"));
            anonymous.awaitFrame(frame(new JsonObject().put("error", "unauthorized").put("action", "members")));
            alice.send(message("members"));
            alice.awaitFrame(frame(new JsonObject().put("members", "alice")));

            // Refused, not closed: the next command of each is served.
            victor.send(message("who"));
            assertThat(awaitMessage(victor, "who")).matches("victor/\\d+");
            anonymous.send(message("who"));
            assertThat(awaitMessage(anonymous, "who")).matches("anonymous/\\d+");
            assertThat(victor.closeStatus).isNotDone();
            assertThat(anonymous.closeStatus).isNotDone();
            assertThat(victor.received).noneMatch(frame -> frame.contains("\"members\":\""));
            // Counted as refused by security (each refusal; its log line is rate-limited), not as a failed listener.
            assertThat(engine.stats().failures(Failure.FORBIDDEN) - forbiddenBefore).isEqualTo(2);
        }
    }

    @Test
    void aStreamAuthorizationSeesTheRequestsIdentityInARequestContext() throws Exception {
        String room = "ctx" + System.nanoTime();
        try (WsClient alice = WsClient.connectWith(base, "/rooms/" + room, ALICE).awaitFrame("ready")) {
            assertThat(PrivateChannels.SEEN.get("room:" + room)).matches("alice/\\d+");
        }
    }

    @Test
    void aListenerRunsInARequestContextOfItsOwnPerMessage() throws Exception {
        String channel = "ctx-listener:" + System.nanoTime();
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> second = new CompletableFuture<>();
        Subscription subscription = cable.subscribe(channel, message -> {
            String seen = RequestProbe.seen(identity, probe);
            if (!first.complete(seen)) {
                second.complete(seen);
            }
        });
        try {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.broadcast(channel, "one").toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.broadcast(channel, "two").toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertThat(first.get(60, TimeUnit.SECONDS)).matches("anonymous/\\d+");
            assertThat(second.get(60, TimeUnit.SECONDS)).matches("anonymous/\\d+").isNotEqualTo(first.join());
        } finally {
            subscription.close();
        }
    }

    private WsClient subscribed(Map<String, String> who, String probed) throws Exception {
        WsClient client = WsClient.connectWith(base, "/cable?probe=" + probed, who, V1);
        client.awaitFrame("{\"type\":\"welcome\"}");
        client.send(new JsonObject().put("command", "subscribe").put("identifier", CHANNEL).encode());
        client.awaitFrame("{\"identifier\":" + Json.encode(CHANNEL) + ",\"type\":\"confirm_subscription\"}");
        return client;
    }

    private static String message(String action) {
        return new JsonObject().put("command", "message").put("identifier", CHANNEL)
                .put("data", new JsonObject().put("action", action).encode()).encode();
    }

    private static String frame(JsonObject message) {
        return "{\"identifier\":" + Json.encode(CHANNEL) + ",\"message\":" + message.encode() + "}";
    }

    private static String awaitMessage(WsClient client, String field) {
        return awaitNthMessage(client, field, 1);
    }

    /** The {@code n}th message to the subscription that has {@code field}: that field's value. */
    private static String awaitNthMessage(WsClient client, String field, int n) {
        org.awaitility.Awaitility.await().atMost(Collector.TIMEOUT).until(() -> withField(client, field).count() >= n);
        return withField(client, field).skip(n - 1).findFirst().orElseThrow();
    }

    private static java.util.stream.Stream<String> withField(WsClient client, String field) {
        return client.received.stream().filter(frame -> frame.startsWith("{\"identifier\":"))
                .map(frame -> new JsonObject(frame).getValue("message"))
                .filter(message -> message instanceof JsonObject object && object.containsKey(field))
                .map(message -> String.valueOf(((JsonObject) message).getValue(field)));
    }
}
