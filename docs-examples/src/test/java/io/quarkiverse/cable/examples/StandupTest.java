package io.quarkiverse.cable.examples;

// tag::test[]
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.test.CableTestClient;
import io.quarkiverse.cable.test.CableTestSubscription;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;

@QuarkusTest
class StandupTest {

    @Inject
    Sessions sessions;

    @Test
    void aPostedNoteReachesEveryBoardAndThePage() {
        String team = "core-" + UUID.randomUUID();                        // no earlier run's notes
        try (CableTestClient alice = connectAs("alice"); CableTestClient bob = connectAs("bob")) {
            CableTestSubscription aliceBoard = alice.subscribe("StandupChannel", Map.of("team", team));
            CableTestSubscription bobBoard = bob.subscribe("StandupChannel", Map.of("team", team));
            bobBoard.awaitJoin("alice");                                  // alice is on the board

            aliceBoard.perform("post", Map.of("text", "shipped the client"));

            JsonObject note = bobBoard.awaitTransmission(message -> message.containsKey("author"));
            assertThat(note.getString("author")).isEqualTo("alice");
            assertThat(note.getString("text")).isEqualTo("shipped the client");
        }
        given().get("/standup/" + team).then().statusCode(200)          // a page rendered now shows it
                .body(containsString("alice: shipped the client"));
    }

    @Test
    void aBoardSubscribedFromItsPageCursorGetsWhatWasPostedMeanwhile() {
        String team = "core-" + UUID.randomUUID();
        String page = given().get("/standup/" + team).then().statusCode(200).extract().asString();
        String cursor = page.replaceAll("(?s).*data-cursor=\"([^\"]*)\".*", "$1");    // as the page's script reads it
        try (CableTestClient alice = connectAs("alice"); CableTestClient bob = connectAs("bob")) {
            alice.subscribe("StandupChannel", Map.of("team", team)).perform("post", Map.of("text", "while loading"));
            // bob's page was rendered before the post: subscribing from its cursor replays the note
            CableTestSubscription bobBoard = bob.subscribe("StandupChannel", Map.of("team", team, "cursor", cursor));
            assertThat(bobBoard.awaitTransmission(message -> message.containsKey("author")).getString("text"))
                    .isEqualTo("while loading");
        }
    }

    @Test
    void anUnknownTeamIsRejectedWithTheReason() {
        try (CableTestClient alice = connectAs("alice")) {
            assertThat(alice.trySubscribe("StandupChannel", Map.of("team", "No Such Team")).awaitRejection())
                    .isEqualTo("no such team");
        }
    }

    private CableTestClient connectAs(String user) {
        return CableTestClient.builder().cookie("session", sessions.login(user)).connect();
    }
}
// end::test[]
