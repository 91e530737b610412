package io.quarkiverse.cable.it.clients;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.NodeTests;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Presence as the real npm client sees it (src/test/js/presence.test.js): {@code @anycable/core} in Node, on the extended
 * protocol. Node is required: without it this test fails.
 */
@QuarkusTest
@DatabaseIndependent
public class PresenceClientsTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void realClientsSeeWhoIsHere() throws Exception {
        NodeTests.assertPasses(base, "presence.test.js", 2);
    }
}
