package io.quarkiverse.cable.examples;

import static io.restassured.RestAssured.given;

import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.test.ApplicationNode;
import io.quarkiverse.cable.test.CableTestChannels;
import io.quarkiverse.cable.test.CableTestClient;
import io.quarkiverse.cable.test.CableTestSubscription;
import io.quarkus.test.junit.QuarkusTest;

/** The Testing section's second node: Failsafe runs it after packaging, in the PostgreSQL stage (-Pdb-postgresql). */
@QuarkusTest
class SecondNodeIT {

    @Inject
    Sessions sessions;

    @Test
    void aBroadcastOnTheSecondNodeReachesASubscriberOfThisOne() {
        String room = CableTestChannels.unique("lobby");
        // tag::second-node[]
        try (ApplicationNode second = ApplicationNode.start(Map.of());          // same database, a port of its own
                CableTestClient alice = CableTestClient.builder().cookie("session", sessions.login("alice")).connect()) {
            CableTestSubscription chat = alice.subscribe("ChatChannel", Map.of("room", room)); // on this node

            given().body("{\"text\":\"hi\"}")                                   // broadcast on the second node
                    .post(second.base().resolve("rooms/" + room + "/messages")).then().statusCode(202);

            chat.awaitTransmission(message -> "hi".equals(message.getString("text"))); // through the database
        }
        // end::second-node[]
    }
}
