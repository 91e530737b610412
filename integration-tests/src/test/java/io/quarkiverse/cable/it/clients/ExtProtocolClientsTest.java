package io.quarkiverse.cable.it.clients;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.NodeTests;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The extended Action Cable protocol ({@code actioncable-v1-ext-json}) with real clients (src/test/js/ext-protocol.test.js):
 * {@code @anycable/core} in Node through a TCP proxy that blackholes its connection while broadcasts continue (every
 * message exactly once, in order, replay before {@code confirm_history}); history lost ({@code reject_history});
 * raw-frame conformance of every history case; v1-json unchanged. Node is required: without it this test fails.
 */
@QuarkusTest
@OncePerServer
public class ExtProtocolClientsTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void extendedProtocolClientsRecoverExactly() throws Exception {
        NodeTests.assertPasses(base, "ext-protocol.test.js", 4);
    }
}
