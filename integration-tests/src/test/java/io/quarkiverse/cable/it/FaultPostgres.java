package io.quarkiverse.cable.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/**
 * The separate PostgreSQL cluster (port 5433 by default) that fault tests stop, start and kill connections on, through
 * {@code src/test/scripts/fault-postgres.sh}. The main server on 5432 is never touched.
 */
public final class FaultPostgres {

    public static final int PORT = Integer.parseInt(System.getenv().getOrDefault("CABLE_FAULT_PG_PORT", "5433"));
    public static final String URL = "jdbc:postgresql://127.0.0.1:" + PORT + "/cable_fault";

    private FaultPostgres() {
    }

    /** Whether this machine can run the cluster: the PostgreSQL cluster tools are installed. */
    public static boolean available() {
        return Files.isDirectory(Path.of("/etc/postgresql")) && onPath("pg_createcluster") && onPath("pg_ctlcluster");
    }

    public static void setup() throws Exception {
        run("setup");
    }

    public static void start() throws Exception {
        run("start");
    }

    /** Fast shutdown: every session is terminated, in-flight transactions roll back. */
    public static void stop() throws Exception {
        run("stop");
    }

    /** Immediate shutdown, as if the server crashed. */
    public static void crash() throws Exception {
        run("crash");
    }

    /** Terminates every session of the test database but the caller's (the writer's, the poller's, the pool's). */
    public static int terminateSessions() throws Exception {
        try (Connection connection = DriverManager.getConnection(URL, "postgres", "");
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        + " WHERE datname = current_database() AND pid <> pg_backend_pid()")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private static void run(String action) throws Exception {
        Path script = Path.of(System.getProperty("cable.fault.script", "src/test/scripts/fault-postgres.sh"));
        Process process = new ProcessBuilder("bash", script.toString(), action).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(180, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException("fault-postgres.sh " + action + " failed: " + output);
        }
    }

    private static boolean onPath(String command) {
        try {
            return new ProcessBuilder("bash", "-c", "command -v " + command).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
