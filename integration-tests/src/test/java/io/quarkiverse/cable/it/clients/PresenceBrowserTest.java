package io.quarkiverse.cable.it.clients;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.NodeTests;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Presence with {@code @anycable/web} in headless Chromium (src/test/js/presence-browser.test.js): two tabs of one
 * user are one presence id; closing one tab changes nothing, closing the last one makes one leave after the TTL; a
 * watcher tab's info() agrees. Node and {@code /usr/bin/chromium} are required: without them this test fails
 * rather than skips.
 */
@QuarkusTest
@DatabaseIndependent
public class PresenceBrowserTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void anycableWebInChromiumSeesWhoIsHere() throws Exception {
        NodeTests.assertPasses(base, "presence-browser.test.js", 1);
    }
}
