package io.quarkiverse.cable.it.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.todo.TodoResource;
import io.quarkiverse.cable.test.BroadcastCapture;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 25, item 9: {@link BroadcastCapture#settle()} is a fence over the broadcasts accepted while the capture is
 * open, so a test proves that nothing was broadcast without sleeping. The fence waits for a broadcast still inside an
 * open transaction (and fails when its bound passes first), returns with everything accepted before it captured,
 * and {@code assertNothingBroadcast} passes after a rolled-back request and fails after a committed one.
 */
@QuarkusTest
@DatabaseIndependent
public class BroadcastCaptureFenceTest {

    @Inject
    Cable cable;

    @Test
    void theFenceWaitsForABroadcastStillInItsTransaction() throws Exception {
        String channel = Channels.unique("fence-held");
        CountDownLatch broadcast = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        try (BroadcastCapture capture = BroadcastCapture.channel(channel)) {
            CompletableFuture<Void> transaction = CompletableFuture.runAsync(() -> QuarkusTransaction.requiringNew()
                    .run(() -> {
                        cable.broadcast(channel, "held");
                        broadcast.countDown();
                        await(commit);
                    }));
            assertThat(broadcast.await(60, TimeUnit.SECONDS)).isTrue();
            // Accepted, not settled: the fence must not pass while the transaction is open.
            assertThatThrownBy(() -> capture.settle(Duration.ofMillis(300))).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("unsettled");
            commit.countDown();
            transaction.get(60, TimeUnit.SECONDS);
            assertThat(capture.settle()).extracting(CableMessage::text).containsExactly("held");
        }
    }

    @Test
    void everythingAcceptedBeforeTheFenceIsCapturedWhenItReturns() {
        String channel = Channels.unique("fence-burst");
        try (BroadcastCapture capture = BroadcastCapture.channel(channel)) {
            for (int i = 0; i < 100; i++) {
                cable.broadcast(channel, "m" + i); // stages ignored
            }
            assertThat(capture.settle()).hasSize(100);
        }
    }

    @Test
    void assertNothingBroadcastAfterARolledBackRequestAndNotAfterACommittedOne() {
        try (BroadcastCapture capture = BroadcastCapture.channel(TodoResource.CHANNEL)) {
            given().contentType("text/plain").body("milk").post("/todos?failAfterBroadcast=true").then()
                    .statusCode(500);
            capture.assertNothingBroadcast();

            given().contentType("text/plain").body("bread").post("/todos").then().statusCode(200);
            assertThatThrownBy(capture::assertNothingBroadcast).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("bread");
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("not released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
