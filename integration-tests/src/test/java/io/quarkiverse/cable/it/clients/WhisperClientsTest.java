package io.quarkiverse.cable.it.clients;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.NodeTests;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Whispers seen by the real npm client (src/test/js/whispers.test.js): {@code @anycable/core} in Node, on both
 * protocols. Node is required: without it this test fails.
 */
@QuarkusTest
@DatabaseIndependent
public class WhisperClientsTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void realClientsWhisper() throws Exception {
        NodeTests.assertPasses(base, "whispers.test.js", 1);
    }
}
