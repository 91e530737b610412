package io.quarkiverse.cable.it.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;

import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkus.test.junit.QuarkusTest;

/** A REST endpoint broadcasts; an in-JVM subscriber receives; bad input gets a clear error. */
@DatabaseIndependent
@QuarkusTest
public class BroadcastResourceTest {

    @Inject
    Cable cable;

    @Test
    void restBroadcastReachesSubscriber() throws Exception {
        String channel = Channels.unique("rest");
        Collector collector = new Collector();
        try (Subscription subscription = cable.subscribe(channel, collector)) {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            given().contentType("text/plain").body("{\"hello\":\"world\"}")
                    .post("/broadcast/{channel}", channel)
                    .then().statusCode(202);
            assertThat(collector.awaitCount(1).texts()).containsExactly("{\"hello\":\"world\"}");
            assertThat(cable.adapter()).isEqualTo("database");
        }
    }

    @Test
    void oversizedPayloadIsRejectedWithTheLimit() {
        // The application allows 17 MiB (quarkus.cable.max-payload-size=17M).
        assertThatThrownBy(() -> cable.broadcast("too-big", "x".repeat(17 * 1024 * 1024 + 1))
                .toCompletableFuture().join())
                .hasCauseInstanceOf(CableException.InvalidMessage.class)
                .hasMessageContaining("over quarkus.cable.max-payload-size (17825792 bytes)");
    }

    @Test
    void overlongChannelNameIsRejected() {
        given().contentType("text/plain").body("x")
                .post("/broadcast/{channel}", "c".repeat(1025))
                .then().statusCode(400).body(containsString("quarkus.cable.max-channel-length"));
    }
}
