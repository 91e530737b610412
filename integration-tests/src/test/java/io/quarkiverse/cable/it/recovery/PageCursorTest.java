package io.quarkiverse.cable.it.recovery;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.NodeTests;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The page cursor closes the render-then-subscribe gap, in headless Chromium (src/test/js/page-cursor.test.js): a
 * Turbo page (@anycable/turbo-stream, extended and plain protocol) and an SSE page, each rendered with its notes and
 * the cursor from one transaction, with notes committed between the render and the subscription: every note shows
 * exactly once, in order; and the same with the clients in Node (src/test/js/page-cursor-clients.test.js). Node and
 * {@code /usr/bin/chromium} are required: without them this test fails.
 */
@QuarkusTest
@DatabaseIndependent
public class PageCursorTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void everyBroadcastAfterTheRenderArrivesExactlyOnceInChromium() throws Exception {
        NodeTests.assertPasses(base, "page-cursor.test.js", 4);
    }

    /** The same gap with the clients in Node: the Turbo subscription as each client sends it, and a raw SSE stream. */
    @Test
    void everyBroadcastAfterTheRenderArrivesExactlyOnceToNodeClients() throws Exception {
        NodeTests.assertPasses(base, "page-cursor-clients.test.js", 4);
    }
}
