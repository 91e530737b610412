package io.quarkiverse.cable.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The tutorial's standup board as its reader opens it: the page StandupPage renders, in two tabs of headless Chromium
 * (src/test/js/standup-browser.test.js, playwright-core driving Debian's /usr/bin/chromium), each logged in as its
 * own user, with the client the extension serves at /_cable/cable.js and no npm on the page. A note posted in one tab
 * shows in the other, "Here" lists both, and a closed tab's user leaves the other's list after the presence TTL.
 * Node and /usr/bin/chromium are required: without them this test fails rather than skips.
 */
@QuarkusTest
class StandupBrowserTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void twoTabsSeeEachOthersNotesAndPresence() throws Exception {
        File directory = new File("src/test/js");
        assertThat(new File(directory, "node_modules/playwright-core")).as("npm ci ran in src/test/js").isDirectory();
        ProcessBuilder builder = new ProcessBuilder("node", "--test", "standup-browser.test.js")
                .directory(directory).redirectErrorStream(true);
        builder.environment().put("CABLE_BASE", "http://" + base.getHost() + ":" + base.getPort());
        Process node = builder.start();
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.waitFor(10, TimeUnit.MINUTES)).as("node finished").isTrue();
        assertThat(node.exitValue()).as("node --test exit code; its output:%n%s", output).isZero();
        assertThat(output).as("node's report").contains("# pass 1").contains("# fail 0");
    }
}
