package io.quarkiverse.cable.it.topology;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the cluster scripts of the topology stage (src/test/scripts/topology, passed as {@code topology.scripts}):
 * {@code Topology.script("pg-replica.sh", "kill-primary")}. Each call is bounded; a failing script fails the test
 * with its output.
 */
final class Topology {

    private Topology() {
    }

    static Path scripts() {
        return Path.of(System.getProperty("topology.scripts", "src/test/scripts/topology")).toAbsolutePath();
    }

    static String script(String name, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", scripts().resolve(name).toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish within 180 s");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue() + ":\n"
                    + output);
        }
        return output;
    }
}
