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
 * The demo's to-do page (todos.html) in two headless Chromium tabs, driven by src/test/js/todos.test.js: each change
 * is saved and broadcast in one transaction and shows in every tab; a rolled-back one in none. Node and
 * {@code /usr/bin/chromium} are required: without them this test fails rather than skips.
 */
@QuarkusTest
class TodoPageTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void everyTabShowsTheCommittedChanges() throws Exception {
        File directory = new File("src/test/js");
        assertThat(new File(directory, "node_modules/playwright-core")).as("npm ci ran in src/test/js").isDirectory();
        String origin = "http://" + base.getHost() + ":" + base.getPort();
        ProcessBuilder builder = new ProcessBuilder("node", "--test", "todos.test.js").directory(directory)
                .redirectErrorStream(true);
        builder.environment().put("CABLE_BASE", origin);
        Process node = builder.start();
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean finished = node.waitFor(10, TimeUnit.MINUTES);
        System.out.println(output);
        assertThat(finished).as("node finished").isTrue();
        assertThat(node.exitValue()).as("node --test exit code; its output:%n%s", output).isZero();
        assertThat(output).contains("# pass 1").contains("# fail 0");
    }
}
