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
 * Drives the real npm clients (src/test/js, pinned by its package-lock.json and installed by the build with
 * {@code npm ci}) against this application: {@code @rails/actioncable} in Node with {@code ws} and in headless
 * Chromium, {@code @anycable/core} in Node, {@code @anycable/web} in Chromium, and Turbo's
 * {@code <turbo-cable-stream-source>} in Chromium. Node and {@code /usr/bin/chromium} are required: without them
 * this test fails rather than skips.
 */
@QuarkusTest
class ActionCableClientsTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void realJavaScriptClientsWorkUnmodified() throws Exception {
        File directory = new File("src/test/js");
        assertThat(new File(directory, "node_modules/@rails/actioncable")).as("npm ci ran in src/test/js").isDirectory();
        String origin = "http://" + base.getHost() + ":" + base.getPort();
        ProcessBuilder builder = new ProcessBuilder("node", "--test", "--test-concurrency=1", "clients.test.js")
                .directory(directory).redirectErrorStream(true);
        builder.environment().put("CABLE_BASE", origin);
        Process node = builder.start();
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean finished = node.waitFor(10, TimeUnit.MINUTES);
        System.out.println(output);
        assertThat(finished).as("node finished").isTrue();
        assertThat(node.exitValue()).as("node --test exit code; its output:%n%s", output).isZero();
        assertThat(output).contains("# pass 8").contains("# fail 0");
    }
}
