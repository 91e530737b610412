package io.quarkiverse.cable.it.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.todo.TodoResource;
import io.quarkiverse.cable.test.BroadcastCapture;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;

/**
 * The demo's to-do list, asserted with the testing helper: each committed change is broadcast once as JSON; a change
 * whose transaction rolls back is neither saved nor broadcast.
 */
@DatabaseIndependent
@QuarkusTest
public class TodoResourceTest {

    @Test
    void committedChangesAreBroadcastAndRolledBackOnesAreNot() {
        try (BroadcastCapture capture = BroadcastCapture.channel(TodoResource.CHANNEL)) {
            long id = given().contentType("text/plain").body("milk").post("/todos").then().statusCode(200).extract()
                    .jsonPath().getLong("id");
            given().contentType("text/plain").body("rolled back").queryParam("failAfterBroadcast", true)
                    .post("/todos").then().statusCode(500);
            given().post("/todos/" + id + "/toggle").then().statusCode(200);

            List<CableMessage> sent = capture.await(2);
            assertThat(sent).hasSize(2);
            JsonObject added = new JsonObject(sent.get(0).text());
            assertThat(added.getString("type")).isEqualTo("added");
            assertThat(added.getJsonObject("item").getString("title")).isEqualTo("milk");
            JsonObject updated = new JsonObject(sent.get(1).text());
            assertThat(updated.getString("type")).isEqualTo("updated");
            assertThat(updated.getJsonObject("item").getBoolean("done")).isTrue();

            List<String> titles = given().get("/todos").then().statusCode(200).extract().jsonPath()
                    .getList("title", String.class);
            assertThat(titles).contains("milk").doesNotContain("rolled back");
        }
    }
}
