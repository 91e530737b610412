package io.quarkiverse.cable.examples;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.test.BroadcastCapture;
import io.quarkus.test.junit.QuarkusTest;

/** The API page's fragments: a broadcast outside the transaction, and the fence after a rollback (FailAfterBroadcast). */
@QuarkusTest
class ApiPagesTest {

    @Inject
    ImportJob importJob;

    @Test
    void broadcastsWithoutTheTransactionMayBeWaitedForInsideIt() throws Exception {
        try (BroadcastCapture capture = BroadcastCapture.channel("import:progress")) {
            // A broadcast that joined the transaction would wait for its own commit here: bounded, so that fails.
            CompletableFuture.runAsync(importJob::importRows).get(30, TimeUnit.SECONDS);
            assertThat(capture.await(1).get(0).text()).isEqualTo("50%");
        }
    }


    @Test
    void aRolledBackTransactionBroadcastsNothing() {
        long items = TodoItem.count();
        // tag::todo-rollback[]
        try (BroadcastCapture capture = BroadcastCapture.channel("todos")) {
            // The demo's resource fails after its broadcast when asked: the transaction rolls back.
            given().contentType("text/plain").body("milk").post("/todos?failAfterBroadcast=true").then().statusCode(500);
            capture.assertNothingBroadcast(); // returns once nothing broadcast so far is still on its way
        }
        // end::todo-rollback[]
        assertThat(TodoItem.count()).as("the item rolled back with the broadcast").isEqualTo(items);
    }
}
