package io.quarkiverse.cable.it.observability;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.MetricsScrape;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * The health checks and metrics an operator scrapes, seen only over HTTP, so that
 * {@link OperationsEndpointsPackagedIT} runs the same checks against the packaged application.
 */
@OncePerServer
@QuarkusTest
public class OperationsEndpointsTest {

    private static final String CHECK = "checks.find { it.name == 'Quarkus Cable' }";

    @Test
    void readinessAndLivenessReportTheCable() {
        // Readiness says up or down, nothing about the cable's internals (quarkus.cable.health.details is off).
        given().get("/q/health/ready").then().statusCode(200)
                .body("status", is("UP"))
                .body(CHECK + ".status", is("UP"))
                .body(CHECK + ".data", nullValue());
        given().get("/q/health/live").then().statusCode(200)
                .body(CHECK + ".data.poller", is("running"))
                .body(CHECK + ".data.writer", is("running"));
    }

    @Test
    void committedBroadcastsAreCounted() {
        MetricsScrape before = MetricsScrape.now();
        given().contentType(ContentType.TEXT).body("counted").post("/broadcast/{channel}", "ops:" + System.nanoTime())
                .then().statusCode(202);
        MetricsScrape after = MetricsScrape.now();
        assertThat(after.count("cable_broadcasts_committed_total"))
                .isGreaterThanOrEqualTo(before.count("cable_broadcasts_committed_total") + 1);
    }
}
