package io.quarkiverse.cable.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the real JavaScript client suites in src/test/js ({@code node --test}, one test file at a time) against
 * the application under test, and asserts it passed every test it declares. Node and the npm packages installed by
 * the build's {@code npm ci} are required: without them the calling test fails rather than skips.
 */
public final class NodeTests {

    private NodeTests() {
    }

    public static void assertPasses(URI base, String script, int expectedPasses) throws Exception {
        assertPasses(base, script, expectedPasses, Map.of());
    }

    /** As above, with more environment variables for the script (e.g. the addresses of other nodes). */
    public static void assertPasses(URI base, String script, int expectedPasses, Map<String, String> environment)
            throws Exception {
        File directory = new File("src/test/js");
        assertThat(new File(directory, "node_modules/playwright-core")).as("npm ci ran in src/test/js").isDirectory();
        ProcessBuilder builder = new ProcessBuilder("node", "--test", "--test-concurrency=1", script)
                .directory(directory).redirectErrorStream(true);
        builder.environment().put("CABLE_BASE", "http://" + base.getHost() + ":" + base.getPort());
        builder.environment().putAll(environment);
        Process node = builder.start();
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean finished = node.waitFor(10, TimeUnit.MINUTES);
        System.out.println(output);
        assertThat(finished).as("node finished").isTrue();
        assertThat(node.exitValue()).as("node --test exit code; its output:%n%s", output).isZero();
        assertThat(output).contains("# pass " + expectedPasses).contains("# fail 0");
    }
}
