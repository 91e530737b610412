package io.quarkiverse.cable.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Recoverable streams with real clients (src/test/js/recovery.test.js): {@code EventSource} in headless Chromium and
 * raw Server-Sent Events in Node, resuming with {@code Last-Event-ID}. Node and {@code /usr/bin/chromium} are
 * required: without them this test fails rather than skips.
 */
@QuarkusTest
class RecoveryClientsTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void clientsRecoverExactly() throws Exception {
        File directory = new File("src/test/js");
        assertThat(new File(directory, "node_modules/playwright-core")).as("npm ci ran in src/test/js").isDirectory();
        String origin = "http://" + base.getHost() + ":" + base.getPort();
        ProcessBuilder builder = new ProcessBuilder("node", "--test", "--test-concurrency=1", "recovery.test.js")
                .directory(directory).redirectErrorStream(true);
        builder.environment().put("CABLE_BASE", origin);
        Process node = builder.start();
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean finished = node.waitFor(10, TimeUnit.MINUTES);
        System.out.println(output);
        assertThat(finished).as("node finished").isTrue();
        assertThat(node.exitValue()).as("node --test exit code; its output:%n%s", output).isZero();
        assertThat(output).contains("# pass 3").contains("# fail 0");
    }
}
