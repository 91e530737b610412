package io.quarkiverse.cable.it.clients;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.NodeTests;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Turbo Streams with recovery (src/test/js/turbo-recovery.test.js): {@code <turbo-cable-stream-source>} elements of
 * {@code @anycable/turbo-stream} over the extended protocol, with the application's signed stream names, in headless
 * Chromium through a TCP proxy that blackholes and then resets the connection while elements are appended: the DOM
 * ends with every element exactly once, in order. Node and {@code /usr/bin/chromium} are required.
 */
@QuarkusTest
@OncePerServer
public class TurboRecoveryClientsTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void turboStreamSourcesRecoverExactly() throws Exception {
        NodeTests.assertPasses(base, "turbo-recovery.test.js", 1);
    }
}
