package io.quarkiverse.cable.it.observability;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.MetricsScrape;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The channel and subscriber figures count the application's subscriptions only. Every node reads the cable's own
 * channels from startup (disconnect commands, whispers, presence events); counted, they made an idle node report 3
 * channels and 3 subscribers. A profile of its own, so the node is fresh: no other test's subscriptions.
 */
@OncePerServer
@QuarkusTest
@TestProfile(IdleMetricsTest.Fresh.class)
public class IdleMetricsTest {

    /** Identity events on as well: every internal reader the cable can run is running. */
    public static class Fresh implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.presence.identity-events", "true", "quarkus.cable.health.details", "true");
        }
    }

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Test
    void anIdleNodeReportsNoChannelsNorSubscribersAndOneSubscriptionCountsOnce() throws Exception {
        // The cable's readers are running, as on a node that has served clients for a while: the disconnect
        // commands' from startup, the whispers' and presence events' from their first use (started here the way
        // the Action Cable server and the presence store start theirs).
        engine.channelReader(IdentityChannels.WHISPERS, text -> {
        }).reading().get(30, TimeUnit.SECONDS);
        engine.channelReader(IdentityChannels.PRESENCE, text -> {
        }).reading().get(30, TimeUnit.SECONDS);
        await().atMost(Collector.TIMEOUT).until(() -> engine.subscribersByChannel().keySet()
                .containsAll(Set.of(IdentityChannels.CONTROL, IdentityChannels.WHISPERS, IdentityChannels.PRESENCE)));
        assertThat(engine.subscribersByChannel().keySet()).allMatch(IdentityChannels::isCableOwned);
        assertThat(engine.channelCount()).isGreaterThanOrEqualTo(3);
        // ...and are not the application's.
        MetricsScrape idle = MetricsScrape.now();
        assertThat(idle.count("cable_channels")).isZero();
        assertThat(idle.count("cable_subscribers")).isZero();
        assertReadiness(0, 0);

        Collector collector = new Collector();
        Subscription subscription = cable.subscribe(Channels.unique("idle-metrics"), collector);
        try {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            MetricsScrape subscribed = MetricsScrape.now();
            assertThat(subscribed.count("cable_channels")).isEqualTo(1);
            assertThat(subscribed.count("cable_subscribers")).isEqualTo(1);
            assertReadiness(1, 1);
        } finally {
            subscription.close();
        }
        await().atMost(Collector.TIMEOUT).until(() -> MetricsScrape.now().count("cable_subscribers") == 0);
        assertThat(MetricsScrape.now().count("cable_channels")).isZero();
    }

    /** The readiness details (health.details) carry the same figures. */
    private static void assertReadiness(int channels, int subscribers) {
        String body = given().get("/q/health/ready").then().statusCode(200).extract().asString();
        assertThat(body).containsPattern("\"channels\"\\s*:\\s*" + channels + "\\b")
                .containsPattern("\"subscribers\"\\s*:\\s*" + subscribers + "\\b");
    }
}
