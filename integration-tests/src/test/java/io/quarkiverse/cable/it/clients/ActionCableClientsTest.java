package io.quarkiverse.cable.it.clients;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.NodeTests;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Drives the real npm clients (src/test/js, pinned by its package-lock.json and installed by the build with
 * {@code npm ci}) against this application: {@code @rails/actioncable} in Node with {@code ws} and in headless
 * Chromium, {@code @anycable/core} in Node, {@code @anycable/web} in Chromium, and Turbo's
 * {@code <turbo-cable-stream-source>} in Chromium. Node and {@code /usr/bin/chromium} are required: without them
 * this test fails rather than skips.
 */
@QuarkusTest
@DatabaseIndependent
public class ActionCableClientsTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void realJavaScriptClientsWorkUnmodified() throws Exception {
        NodeTests.assertPasses(base, "clients.test.js", 8);
    }
}
