package io.quarkiverse.cable.it.clients;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.NodeTests;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Recoverable streams with real clients (src/test/js/recovery.test.js): {@code EventSource} in headless Chromium and
 * raw Server-Sent Events in Node, resuming with {@code Last-Event-ID}. Node and {@code /usr/bin/chromium} are
 * required: without them this test fails rather than skips.
 */
@QuarkusTest
@OncePerServer
public class RecoveryClientsTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void clientsRecoverExactly() throws Exception {
        NodeTests.assertPasses(base, "recovery.test.js", 3);
    }
}
