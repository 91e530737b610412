package io.quarkiverse.cable.examples;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The cable's rows survive a restart of the application, whatever the application's Hibernate schema management
 * strategy on the default persistence unit (application.properties). Runs after the other test classes (Quarkus
 * runs the tests without a test profile first; this one's profile restarts the application on the same database): it
 * reads, through the guide's history query, what FirstAppTest stored before the restart.
 *
 * TODO(schema-orm): with drop-and-create in application.properties this is the test that fails until Hibernate leaves
 * the cable's tables alone.
 */
@QuarkusTest
@TestProfile(RowsSurviveRestartTest.Restarted.class)
class RowsSurviveRestartTest {

    public static class Restarted implements QuarkusTestProfile {
        @Override
        public String getConfigProfile() {
            return "restarted";
        }
    }

    @Test
    void messagesStoredBeforeTheRestartAreStillThere() {
        given().get("/rooms/lobby/recent").then().statusCode(200).body(containsString("hello"));
    }
}
