package io.quarkiverse.cable.it.clients;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.NodeTests;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * {@code @anycable/web} over the extended protocol in headless Chromium (src/test/js/ext-browser.test.js), through a
 * TCP proxy that blackholes and then resets the browser's connection while broadcasts continue: every message exactly
 * once, in order, the replay before {@code confirm_history} and live after it; history lost (epoch changed, trimmed):
 * {@code reject_history}, nothing replayed, live continues. Node and {@code /usr/bin/chromium} are required: without
 * them this test fails rather than skips.
 */
@QuarkusTest
@DatabaseIndependent
public class ExtBrowserClientsTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void anycableWebInChromiumRecoversExactly() throws Exception {
        NodeTests.assertPasses(base, "ext-browser.test.js", 3);
    }
}
