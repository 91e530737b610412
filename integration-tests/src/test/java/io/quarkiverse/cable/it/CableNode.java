package io.quarkiverse.cable.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.quarkiverse.cable.test.ApplicationNode;

/**
 * One node of the application as a separate process: the test kit's {@link ApplicationNode} (the packaged jar on a
 * free port) against the database given by the failsafe configuration (or any JDBC URL), with the test endpoints on
 * and the requests these suites drive a node with. Stopped with SIGTERM, as an orchestrator would, and killed when it
 * does not exit in time.
 */
public final class CableNode implements AutoCloseable {

    public static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(90);
    public static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

    public final String name;
    public final int port;
    public final Process process;
    public final Path log;
    private final ApplicationNode node;

    private CableNode(ApplicationNode node) {
        this.node = node;
        this.name = node.name();
        this.port = node.port();
        this.process = node.process();
        this.log = node.log();
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

    public static Path jar() {
        return Path.of(System.getProperty("cable.node.jar", "target/quarkus-app/quarkus-run.jar")).toAbsolutePath();
    }

    public static CableNode start(String name, String jdbcUrl, Map<String, String> config) throws Exception {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("quarkus.datasource.jdbc.url", String.valueOf(jdbcUrl));
        settings.put("quarkus.datasource.username", dbUser());
        settings.put("quarkus.datasource.password", dbPassword());
        // The endpoints the tests drive the node with (/broadcast, /enqueue, /tx-crash) are off in a production run;
        // on unless the test chose (ProductionDemoPackagedIT runs the demo without them).
        settings.put("cable-it.test-endpoints", "true");
        settings.putAll(config);
        return new CableNode(ApplicationNode.builder().name(name).jar(jar()).jvmOption("-Xmx256m")
                .jvmOption("-XX:+UseSerialGC").config(settings).startTimeout(START_TIMEOUT).stopTimeout(STOP_TIMEOUT)
                .start());
    }

    public static CableNode start(String name, Map<String, String> config) throws Exception {
        return start(name, dbUrl(), config);
    }

    public URI base() {
        return node.base();
    }

    /** The HTTP status of /q/health/ready, or -1 when the node does not answer. */
    public int readyStatus() {
        try {
            return node.status("/q/health/ready");
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
    public int enqueue(String channel, String producer, int count) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(base().resolve("enqueue/" + channel
                + "?count=" + count + "&producer=" + producer)).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("enqueue answered " + response.statusCode() + ": " + response.body());
        }
        return Integer.parseInt(response.body().trim());
    }

    /** SIGTERM, then waits for the exit (killing the process after the stop timeout). Returns the exit code. */
    public int stop() throws InterruptedException {
        return node.stop();
    }

    /** SIGKILL: the process gets no chance to clean up. */
    public void kill() throws InterruptedException {
        node.kill();
    }

    public String logTail() {
        return node.logTail();
    }

    @Override
    public void close() {
        node.close();
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
