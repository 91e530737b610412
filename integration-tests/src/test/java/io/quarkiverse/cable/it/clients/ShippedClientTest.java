package io.quarkiverse.cable.it.clients;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.emptyString;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.startsWith;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.NodeTests;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The browser client the extension serves at {@code /_cable/cable.js}: over plain HTTP (a JavaScript module with its
 * license banner, a strong ETag that revalidates to {@code 304}), and in headless Chromium
 * (src/test/js/shipped-client.test.js), where a page of the application imports it without npm and subscribes,
 * receives a broadcast, performs an action, whispers and recovers what it missed while its connection was down. Node
 * and {@code /usr/bin/chromium} are required: without them this test fails rather than skips.
 */
@QuarkusTest
@DatabaseIndependent
public class ShippedClientTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void servedAsAJavaScriptModuleThatRevalidates() {
        String etag = given().get("/_cable/cable.js").then().statusCode(200)
                .contentType("text/javascript")
                .header("Cache-Control", "no-cache")
                .header("ETag", matchesPattern("\"[0-9a-f]{64}\""))
                .body(startsWith("/*!"), containsString("@anycable/web 1.1.1 (MIT)"),
                        containsString("Copyright 2021-2026 Vladimir Dementyev"), containsString("createCable"))
                .extract().header("ETag");
        given().header("If-None-Match", etag).get("/_cable/cable.js").then().statusCode(304)
                .body(emptyString());
    }

    @Test
    void importedByAPageInChromium() throws Exception {
        NodeTests.assertPasses(base, "shipped-client.test.js", 1);
    }
}
