package io.quarkiverse.cable.it;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Whispers seen by the real npm client (src/test/js/whispers.test.js): {@code @anycable/core} in Node, on both
 * protocols. Node is required: without it this test fails.
 */
@QuarkusTest
@DatabaseIndependent
class WhisperClientsTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void realClientsWhisper() throws Exception {
        NodeTests.assertPasses(base, "whispers.test.js", 1);
    }
}
