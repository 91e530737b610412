package io.quarkiverse.cable.it.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.test.CableTestChannels;
import io.quarkiverse.cable.test.CableTestClient;
import io.quarkiverse.cable.test.CableTestSubscription;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;

/**
 * The test kit's Action Cable client against this application's channels, as an application's own tests use it
 * ({@code ChatChannel}: rooms, {@code speak} and {@code echo}, whispers, presence, room {@code forbidden} rejected;
 * {@code ChatIdentification}: the {@code user} query parameter or cookie, {@code mallory} refused). The clients find
 * the application from its configuration ({@code quarkus.http.test-port}, 0 in CI: the port actually bound), except
 * where a test names the base URL as {@code @TestHTTPResource} gives it.
 */
@QuarkusTest
@DatabaseIndependent
public class CableTestKitTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void subscribesWithParamsPerformsAndSeesTheTransmissions() {
        String room = CableTestChannels.unique("kit");
        try (CableTestClient alice = CableTestClient.builder().queryParam("user", "alice").connect()) {
            CableTestSubscription chat = alice.subscribe("ChatChannel", Map.of("room", room));
            assertThat(new JsonObject(chat.identifier()).getString("room")).isEqualTo(room);

            chat.perform("speak", Map.of("text", "hello"));
            JsonObject spoken = chat.awaitTransmission(message -> "hello".equals(message.getString("text")));
            assertThat(spoken.getString("user")).as("the identity the query parameter gave").isEqualTo("alice");

            chat.perform("echo", Map.of("text", "only me"));
            assertThat(chat.awaitTransmissionEqualTo(Map.of("echo", "only me"))).isEqualTo(new JsonObject()
                    .put("echo", "only me"));
            assertThat(chat.transmissions()).containsExactly(spoken, new JsonObject().put("echo", "only me"));
        }
    }

    @Test
    void identifiesByCookieAndReportsARefusedConnection() {
        try (CableTestClient carol = CableTestClient.builder().base(base).cookie("user", "carol").connect()) {
            CableTestSubscription chat = carol.subscribe("ChatChannel", Map.of("room", CableTestChannels.unique("kit")));
            chat.perform("speak", Map.of("text", "by cookie"));
            assertThat(chat.awaitTransmission(message -> "by cookie".equals(message.getString("text")))
                    .getString("user")).isEqualTo("carol");
        }
        assertThat(CableTestClient.builder().queryParam("user", "mallory").connectRefused()).isEqualTo("unauthorized");
        assertThatThrownBy(() -> CableTestClient.builder().queryParam("user", "mallory").connect())
                .isInstanceOf(AssertionError.class).hasMessageContaining("refused").hasMessageContaining("unauthorized");
    }

    @Test
    void aRejectedSubscriptionIsReported() {
        try (CableTestClient alice = CableTestClient.builder().queryParam("user", "alice").connect()) {
            // ChatChannel rejects room forbidden without a reason: the frame has none, and so has the rejection.
            assertThat(alice.trySubscribe("ChatChannel", Map.of("room", "forbidden")).awaitRejection()).isNull();
            assertThatThrownBy(() -> alice.subscribe("ChatChannel", Map.of("room", "forbidden")))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("was rejected");
            // A confirmed one is not a rejection.
            CableTestSubscription lobby = alice.trySubscribe("ChatChannel", Map.of("room", CableTestChannels.unique("kit")));
            assertThatThrownBy(lobby::awaitRejection).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("it was confirmed");
        }
    }

    @Test
    void presenceJoinsAndLeavesAreSeenByTheOthers() {
        String room = CableTestChannels.unique("kit");
        try (CableTestClient ann = CableTestClient.builder().queryParam("user", "ann").connect();
                CableTestClient bob = CableTestClient.builder().queryParam("user", "bob").connect()) {
            CableTestSubscription annChat = ann.subscribe("ChatChannel", Map.of("room", room));
            CableTestSubscription bobChat = bob.subscribe("ChatChannel", Map.of("room", room));
            bobChat.join("bob", null);
            bobChat.awaitJoin("bob");

            annChat.join("ann", Map.of("name", "Ann"));
            assertThat(bobChat.awaitJoin("ann").getJsonObject("info")).isEqualTo(new JsonObject().put("name", "Ann"));
            JsonObject info = annChat.presenceInfo();
            assertThat(info.getInteger("total")).isEqualTo(2);
            assertThat(bobChat.presenceEvents()).extracting(event -> event.getString("id")).containsExactly("bob", "ann");

            // Unsubscribing leaves the presence set at once: ann seeing bob leave proves the server handled it.
            bobChat.unsubscribe();
            annChat.awaitLeave("bob");
            assertThat(annChat.presenceInfo().getInteger("total")).isEqualTo(1);
        }
    }

    @Test
    void aWhisperReachesTheOtherSubscriberStampedWithItsSender() {
        String room = CableTestChannels.unique("kit");
        try (CableTestClient ann = CableTestClient.builder().queryParam("user", "ann").connect();
                CableTestClient bob = CableTestClient.builder().queryParam("user", "bob").connect()) {
            CableTestSubscription annChat = ann.subscribe("ChatChannel", Map.of("room", room));
            CableTestSubscription bobChat = bob.subscribe("ChatChannel", Map.of("room", room));
            annChat.whisper(Map.of("typing", true));
            JsonObject whisper = bobChat.awaitTransmission(message -> message.containsKey("typing"));
            assertThat(whisper.getString("from")).as("stamped by ChatChannel.whispered").isEqualTo("ann");
        }
    }

    @Test
    void aWaitFailsAtOnceWhenTheConnectionEnded() {
        CableTestClient alice = CableTestClient.builder().queryParam("user", "alice").connect();
        CableTestSubscription chat = alice.subscribe("ChatChannel", Map.of("room", CableTestChannels.unique("kit")));
        alice.close();
        long started = System.nanoTime();
        assertThatThrownBy(() -> chat.awaitTransmission(message -> true)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("the connection ended");
        assertThat(System.nanoTime() - started).as("not the 30 s timeout").isLessThan(10_000_000_000L);
        assertThatThrownBy(() -> chat.perform("echo", Map.of())).isInstanceOf(AssertionError.class)
                .hasMessageContaining("the connection ended");
    }
}
