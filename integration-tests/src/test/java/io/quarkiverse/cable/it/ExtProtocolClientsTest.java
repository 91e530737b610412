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
 * The extended Action Cable protocol ({@code actioncable-v1-ext-json}) with real clients (src/test/js/ext-protocol.test.js):
 * {@code @anycable/core} in Node through a TCP proxy that blackholes its connection while broadcasts continue (every
 * message exactly once, in order, replay before {@code confirm_history}); history lost ({@code reject_history});
 * raw-frame conformance of every history case; v1-json unchanged. Node is required: without it this test fails.
 */
@QuarkusTest
class ExtProtocolClientsTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void extendedProtocolClientsRecoverExactly() throws Exception {
        File directory = new File("src/test/js");
        assertThat(new File(directory, "node_modules/playwright-core")).as("npm ci ran in src/test/js").isDirectory();
        String origin = "http://" + base.getHost() + ":" + base.getPort();
        ProcessBuilder builder = new ProcessBuilder("node", "--test", "--test-concurrency=1", "ext-protocol.test.js")
                .directory(directory).redirectErrorStream(true);
        builder.environment().put("CABLE_BASE", origin);
        Process node = builder.start();
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean finished = node.waitFor(10, TimeUnit.MINUTES);
        System.out.println(output);
        assertThat(finished).as("node finished").isTrue();
        assertThat(node.exitValue()).as("node --test exit code; its output:%n%s", output).isZero();
        assertThat(output).contains("# pass 4").contains("# fail 0");
    }
}
