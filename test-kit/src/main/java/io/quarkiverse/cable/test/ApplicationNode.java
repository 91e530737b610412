package io.quarkiverse.cable.test;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Another node of the application, for multi-node tests: the packaged application
 * ({@code java -jar target/quarkus-app/quarkus-run.jar}) as a separate process on a free port, on the same database
 * as the application under test, so what one node broadcasts reaches the other's subscribers through the database as
 * in production. {@link #start(Map)} returns once the node is ready; {@link #stop()} sends SIGTERM, as an
 * orchestrator would.
 *
 * <pre>{@code
 * try (ApplicationNode second = ApplicationNode.start(Map.of());
 *         CableTestClient there = CableTestClient.builder().base(second.base()).connect()) {
 *     ...
 * }
 * }</pre>
 *
 * The jar exists only after {@code mvn package}: run such tests with Failsafe ({@code *IT}, after packaging), not
 * Surefire. Without {@code quarkus.datasource.jdbc.url} in the node's configuration, the node takes the datasource
 * URL, user name and password of the application under test (its configuration as {@code ConfigProvider} reads it
 * in the test's JVM): an embedded in-memory H2 database lives inside one process and cannot be shared, so that is
 * refused with an explanation.
 */
public final class ApplicationNode implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
    private static final String JDBC_URL = "quarkus.datasource.jdbc.url";

    private final String name;
    private final int port;
    private final Process process;
    private final Path log;
    private final Duration stopTimeout;

    private ApplicationNode(String name, int port, Process process, Path log, Duration stopTimeout) {
        this.name = name;
        this.port = port;
        this.process = process;
        this.log = log;
        this.stopTimeout = stopTimeout;
    }

    /** Starts a node named {@code node} with {@code config} (system properties of its JVM), and waits until ready. */
    public static ApplicationNode start(Map<String, String> config) {
        return builder().config(config).start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** What to start and how. */
    public static final class Builder {

        private String name = "node";
        private Path jar = Path.of("target", "quarkus-app", "quarkus-run.jar");
        private final Map<String, String> config = new LinkedHashMap<>();
        private final List<String> jvmOptions = new ArrayList<>();
        private String readyPath = "/q/health/ready";
        private Duration startTimeout = Duration.ofSeconds(180);
        private Duration stopTimeout = Duration.ofSeconds(90);

        private Builder() {
        }

        /** Names the node in its log file ({@code target/nodes/<name>-<port>.log}) and in failures. */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** The packaged application; {@code target/quarkus-app/quarkus-run.jar} by default. */
        public Builder jar(Path jar) {
            this.jar = jar;
            return this;
        }

        /** Configuration of the node, as system properties ({@code -Dkey=value}); added to what was given before. */
        public Builder config(Map<String, String> config) {
            this.config.putAll(config);
            return this;
        }

        /** An option of the node's JVM, such as {@code -Xmx256m}. */
        public Builder jvmOption(String option) {
            jvmOptions.add(option);
            return this;
        }

        /**
         * The path answering 200 once the node is ready; {@code /q/health/ready} by default (SmallRye Health, where
         * the cable's readiness check waits for its database).
         */
        public Builder readyPath(String readyPath) {
            this.readyPath = readyPath;
            return this;
        }

        public Builder startTimeout(Duration startTimeout) {
            this.startTimeout = startTimeout;
            return this;
        }

        /** How long {@link ApplicationNode#stop()} waits after SIGTERM before killing the process. */
        public Builder stopTimeout(Duration stopTimeout) {
            this.stopTimeout = stopTimeout;
            return this;
        }

        /**
         * Starts the node and waits until {@code readyPath} answers 200.
         *
         * @throws IllegalStateException when there is no jar, no shareable database, or the node exited or was not
         *         ready in time (with the tail of its log)
         */
        public ApplicationNode start() {
            Path application = jar.toAbsolutePath();
            if (!Files.isRegularFile(application)) {
                throw new IllegalStateException("No application jar at " + application
                        + ": package the application first (run the test with Failsafe, after mvn package)");
            }
            Map<String, String> settings = new LinkedHashMap<>();
            if (!config.containsKey(JDBC_URL)) {
                settings.putAll(sameDatabase(ConfigProvider.getConfig()));
            }
            settings.putAll(config);
            int port = freePort();
            Path log = Path.of("target", "nodes", name + "-" + port + ".log").toAbsolutePath();
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(jvmOptions);
            command.add("-Dquarkus.http.port=" + port);
            command.add("-Dquarkus.http.host=127.0.0.1");
            settings.forEach((key, value) -> command.add("-D" + key + "=" + value));
            command.add("-jar");
            command.add(application.toString());
            Process process;
            try {
                Files.createDirectories(log.getParent());
                process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            } catch (IOException e) {
                throw new IllegalStateException("Could not start " + name + " (" + command + "): " + e, e);
            }
            ApplicationNode node = new ApplicationNode(name, port, process, log, stopTimeout);
            try {
                node.awaitReady(readyPath, startTimeout);
            } catch (RuntimeException | Error e) {
                node.close();
                throw e;
            }
            return node;
        }
    }

    /** The datasource settings of the application under test, refused when its database cannot be shared. */
    static Map<String, String> sameDatabase(Config config) {
        Optional<String> url = config.getOptionalValue(JDBC_URL, String.class);
        if (url.isEmpty()) {
            throw new IllegalStateException("No " + JDBC_URL + " to share with the node: give the node one");
        }
        if (url.get().startsWith("jdbc:h2:mem:")) {
            throw new IllegalStateException("The application's database " + url.get() + " is an in-memory H2 database,"
                    + " which lives inside one process: a second node cannot share it. Give the node "
                    + JDBC_URL + " of a database server (PostgreSQL, MariaDB, or H2 in server mode)");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(JDBC_URL, url.get());
        config.getOptionalValue("quarkus.datasource.username", String.class)
                .ifPresent(user -> settings.put("quarkus.datasource.username", user));
        config.getOptionalValue("quarkus.datasource.password", String.class)
                .ifPresent(password -> settings.put("quarkus.datasource.password", password));
        return settings;
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    /** The node's base URL, {@code http://127.0.0.1:<port>/}: for {@link CableTestClient.Builder#base(URI)}. */
    public URI base() {
        return URI.create("http://127.0.0.1:" + port + "/");
    }

    /** The node's process, for a test that watches it (whether it is alive, how it exited). */
    public Process process() {
        return process;
    }

    /** The node's output (standard output and error). */
    public Path log() {
        return log;
    }

    /** The last 40 lines of the node's output, for a failure message. */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Waits until {@code path} answers 200; fails early, with the log's tail, when the process died. */
    private void awaitReady(String path, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + logTail());
                }
                if (status(path) == 200) {
                    return;
                }
                // Not a sleep as synchronisation: the poll interval of a start that takes seconds; returns at once
                // when the process exits.
                process.waitFor(200, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for " + name, e);
        }
        throw new IllegalStateException(name + " not ready within " + timeout + ":\n" + logTail());
    }

    /** The HTTP status of a GET of {@code path}, or -1 when the node does not answer. */
    public int status(String path) throws InterruptedException {
        try {
            return HTTP.send(HttpRequest.newBuilder(base().resolve(path.startsWith("/") ? path.substring(1) : path))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * SIGTERM, then waits for the exit and returns its code.
     *
     * @throws IllegalStateException when the node did not exit within the stop timeout (it is then killed)
     */
    public int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
            kill();
            throw new IllegalStateException(name + " did not exit within " + stopTimeout + " of SIGTERM");
        }
        return process.exitValue();
    }

    /** SIGKILL: the process gets no chance to clean up. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Stops the node if it still runs: SIGTERM, then SIGKILL after the stop timeout. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("No free port for a node: " + e, e);
        }
    }
}
