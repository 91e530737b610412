package io.quarkiverse.cable.examples;

// tag::kit-test[]
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.test.CableTestChannels;
import io.quarkiverse.cable.test.CableTestClient;
import io.quarkiverse.cable.test.CableTestSubscription;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;

@QuarkusTest
class ChatChannelTest {

    @Inject
    Sessions sessions;                                               // the application's own login

    @Test
    void speakReachesTheRoom() {
        String room = CableTestChannels.unique("lobby");             // lobby:<uuid>, no earlier run's history
        try (CableTestClient alice = CableTestClient.builder()      // ws://localhost:<test port>/cable
                .cookie("session", sessions.login("alice"))          // as the Identification reads it
                .connect()) {                                        // waits for the welcome
            CableTestSubscription chat = alice.subscribe("ChatChannel", Map.of("room", room));
            chat.perform("speak", Map.of("text", "hi"));

            JsonObject said = chat.awaitTransmission(message -> "hi".equals(message.getString("text")));
            assertThat(said.getString("user")).isEqualTo("alice");
        }
    }

    @Test
    void noRoomIsRejectedAndNoSessionIsUnauthorized() {
        try (CableTestClient alice = CableTestClient.builder().cookie("session", sessions.login("alice")).connect()) {
            alice.trySubscribe("ChatChannel", Map.of()).awaitRejection(); // the reject's reason, or null
        }
        assertThat(CableTestClient.builder().connectRefused()).isEqualTo("unauthorized");
    }
}
// end::kit-test[]
