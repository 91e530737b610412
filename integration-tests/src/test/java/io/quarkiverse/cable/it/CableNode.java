package io.quarkiverse.cable.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One node of the application as a separate process: {@code java -jar target/quarkus-app/quarkus-run.jar} on a free
 * port, against the database given by the failsafe configuration (or any JDBC URL). Stopped with SIGTERM, as an
 * orchestrator would, and killed when it does not exit in time.
 */
public final class CableNode implements AutoCloseable {

    public static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(90);
    public static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

    public final String name;
    public final int port;
    final Process process;
    public final Path log;

    private CableNode(String name, int port, Process process, Path log) {
        this.name = name;
        this.port = port;
        this.process = process;
        this.log = log;
    }

    /** The database kind the application jar was built for (h2, postgresql, mariadb). */
    public static String dbKind() {
        return System.getProperty("cable.db.kind", "h2");
    }

    public static String dbUrl() {
        return System.getProperty("cable.db.url");
    }

    public static String dbUser() {
        return System.getProperty("cable.db.user", "");
    }

    public static String dbPassword() {
        return System.getProperty("cable.db.password", "");
    }

    /** Whether nodes can share a database: embedded H2 lives inside one process. */
    public static boolean sharedDatabase() {
        return !dbKind().equals("h2") && dbUrl() != null;
    }

    static Path jar() {
        return Path.of(System.getProperty("cable.node.jar", "target/quarkus-app/quarkus-run.jar")).toAbsolutePath();
    }

    public static CableNode start(String name, String jdbcUrl, Map<String, String> config) throws Exception {
        Path jar = jar();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("No application jar at " + jar + ": run the Quarkus build first (mvn verify)");
        }
        int port = freePort();
        Path logs = Path.of("target", "nodes");
        Files.createDirectories(logs);
        Path log = logs.resolve(name + "-" + port + ".log").toAbsolutePath();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-XX:+UseSerialGC");
        command.add("-Dquarkus.http.port=" + port);
        command.add("-Dquarkus.http.host=127.0.0.1");
        command.add("-Dquarkus.datasource.jdbc.url=" + jdbcUrl);
        command.add("-Dquarkus.datasource.username=" + dbUser());
        command.add("-Dquarkus.datasource.password=" + dbPassword());
        // The endpoints the tests drive the node with (/broadcast, /enqueue, /tx-crash) are off in a production run;
        // on unless the test chose (ProductionDemoPackagedIT runs the demo without them).
        if (!config.containsKey("cable-it.test-endpoints")) {
            command.add("-Dcable-it.test-endpoints=true");
        }
        config.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-jar");
        command.add(jar.toString());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        CableNode node = new CableNode(name, port, process, log);
        try {
            node.awaitReady(START_TIMEOUT);
        } catch (Exception | AssertionError e) {
            node.close();
            throw e;
        }
        return node;
    }

    static CableNode start(String name, Map<String, String> config) throws Exception {
        return start(name, dbUrl(), config);
    }

    public URI base() {
        return URI.create("http://127.0.0.1:" + port + "/");
    }

    /** Waits until the readiness endpoint answers 200; fails early, with the log's tail, when the process died. */
    void awaitReady(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + logTail());
            }
            if (readyStatus() == 200) {
                return;
            }
            process.waitFor(200, TimeUnit.MILLISECONDS);
        }
        throw new IllegalStateException(name + " not ready within " + timeout + ":\n" + logTail());
    }

    /** The HTTP status of /q/health/ready, or -1 when the node does not answer. */
    public int readyStatus() {
        try {
            return HTTP.send(HttpRequest.newBuilder(base().resolve("q/health/ready")).timeout(Duration.ofSeconds(10))
                    .GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** POST /broadcast/{channel}: answers once the broadcast is committed (202) or failed (4xx/5xx, with why). */
    public HttpResponse<String> broadcast(String channel, String payload) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(base().resolve("broadcast/" + channel))
                .timeout(Duration.ofSeconds(120))
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(payload, StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** POST /enqueue/{channel}: queues {@code count} broadcasts and answers without waiting for their commit. */
    int enqueue(String channel, String producer, int count) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(base().resolve("enqueue/" + channel
                + "?count=" + count + "&producer=" + producer)).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("enqueue answered " + response.statusCode() + ": " + response.body());
        }
        return Integer.parseInt(response.body().trim());
    }

    /** SIGTERM, then waits for the exit (killing the process after the stop timeout). Returns the exit code. */
    int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
            throw new IllegalStateException(name + " did not exit within " + STOP_TIMEOUT + " of SIGTERM");
        }
        return process.exitValue();
    }

    /** SIGKILL: the process gets no chance to clean up. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    /** Stops every node, even when one of them fails to stop; rethrows the first failure. */
    public static void closeAll(List<CableNode> nodes) throws Exception {
        Exception first = null;
        for (CableNode node : nodes) {
            try {
                node.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
