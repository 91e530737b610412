package io.quarkiverse.cable.it.topology;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the topology stage's cluster scripts ({@code src/test/scripts/topology/NAME.sh setup|start|stop|...},
 * the folder passed as {@code topology.scripts}): each builds its cluster on ports of its own, from nothing, and is
 * bounded by the timeout given here.
 */
final class TopologyScript {

    private final String name;

    TopologyScript(String name) {
        this.name = name;
    }

    /** Runs {@code action}; fails with the script's output when it exits non-zero or overruns. */
    String run(String action, long timeoutSeconds, String... arguments) throws Exception {
        Path script = Path.of(System.getProperty("topology.scripts", "src/test/scripts/topology"), name + ".sh");
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("bash", script.toString(), action));
        command.addAll(java.util.List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        // The output is small; reading it after the exit cannot block the script on a full pipe.
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(script + " " + action + " did not finish within " + timeoutSeconds + " s");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IllegalStateException(script + " " + action + " exited with " + process.exitValue() + ":\n"
                    + output);
        }
        return output;
    }
}
