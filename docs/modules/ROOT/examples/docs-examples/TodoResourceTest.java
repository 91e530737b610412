package io.quarkiverse.cable.examples;

// tag::todo-test[]
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.test.BroadcastCapture;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class TodoResourceTest {

    @Test
    void addingBroadcastsTheItem() {
        try (BroadcastCapture capture = BroadcastCapture.channel("todos")) {
            given().contentType("text/plain").body("milk").post("/todos").then().statusCode(200);

            List<CableMessage> sent = capture.await(1); // at most 30 s; await(n, Duration) to choose
            assertEquals(1, sent.size());
            assertEquals("todos", sent.get(0).channel());
        }
    }
}
// end::todo-test[]
