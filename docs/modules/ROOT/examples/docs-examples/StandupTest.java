package io.quarkiverse.cable.examples;

// tag::test[]
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
            // Presence events are joins and leaves from now on (a page reads who is already there with
            // presence.info()): bob is on the board first, so he sees alice join.
            CableTestSubscription bobBoard = bob.subscribe("StandupChannel", Map.of("team", team));
            CableTestSubscription aliceBoard = alice.subscribe("StandupChannel", Map.of("team", team));
            bobBoard.awaitJoin("alice");

            aliceBoard.perform("post", Map.of("text", "shipped the client"));

            JsonObject note = bobBoard.awaitTransmission(message -> message.containsKey("author"));
            assertEquals("alice", note.getString("author"));
            assertEquals("shipped the client", note.getString("text"));
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
            assertEquals("while loading",
                    bobBoard.awaitTransmission(message -> message.containsKey("author")).getString("text"));
        }
    }

    @Test
    void anUnknownTeamIsRejectedWithTheReason() {
        try (CableTestClient alice = connectAs("alice")) {
            assertEquals("no such team",
                    alice.trySubscribe("StandupChannel", Map.of("team", "No Such Team")).awaitRejection());
        }
    }

    private CableTestClient connectAs(String user) {
        return CableTestClient.builder().cookie("session", sessions.login(user)).connect();
    }
}
// end::test[]
