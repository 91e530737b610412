package io.quarkiverse.cable.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.util.Statistics;

import io.agroal.api.AgroalDataSource;
import redis.clients.jedis.Jedis;

/**
 * Runs {@link BroadcastThroughput} through JMH and writes a markdown table: broadcasts per second per backend and
 * thread count, and the ratio to Redis PUBLISH measured in the same run.
 * <p>
 * Settings are system properties: {@code bench.broadcasts} (100000), {@code bench.backends}
 * (memory,h2,postgresql,mariadb,redis,redis-pipelined), {@code bench.threads} (1,5,20), {@code bench.warmups} (1),
 * {@code bench.iterations} (3), {@code bench.channels} (10), {@code bench.window} (2000), {@code bench.out}
 * (results/throughput.md), plus connection overrides ({@code bench.postgresql.url} ...), see {@link Backend}.
 */
public final class ThroughputMain {

    private static final List<String> ALL_BACKENDS = List.of("memory", "h2", "postgresql", "postgresql-sql", "mariadb",
            "mariadb-sql", "redis", "redis-pipelined");

    public static void main(String[] args) throws Exception {
        int broadcasts = Integer.parseInt(Backend.prop("bench.broadcasts", "100000"));
        String[] backends = Backend.prop("bench.backends", String.join(",", ALL_BACKENDS)).split(",");
        String[] threads = Backend.prop("bench.threads", "1,5,20").split(",");
        int warmups = Integer.parseInt(Backend.prop("bench.warmups", "1"));
        int iterations = Integer.parseInt(Backend.prop("bench.iterations", "3"));
        String channels = Backend.prop("bench.channels", "10");
        String window = Backend.prop("bench.window", "2000");
        Path out = Path.of(Backend.prop("bench.out", "results/throughput.md")).toAbsolutePath();
        Files.createDirectories(out.getParent());
        Path statsFile = Files.createTempFile("cable-bench-stats", ".tsv");
        Path jsonFile = out.resolveSibling(out.getFileName().toString().replaceFirst("\\.md$", "") + "-jmh.json");

        List<String> forkArgs = new ArrayList<>(List.of("-Xms1g", "-Xmx1g", "-Dbench.statsFile=" + statsFile));
        Properties properties = System.getProperties();
        for (String name : properties.stringPropertyNames()) {
            if (name.startsWith("bench.") && !name.equals("bench.statsFile")) {
                forkArgs.add("-D" + name + "=" + properties.getProperty(name));
            }
        }

        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(BroadcastThroughput.class.getName() + ".broadcast")
                .param("backend", backends)
                .param("threads", threads)
                .param("broadcasts", Integer.toString(broadcasts))
                .param("channels", channels)
                .param("window", window)
                .forks(1)
                .warmupIterations(warmups)
                .measurementIterations(iterations)
                .jvmArgsAppend(forkArgs.toArray(String[]::new))
                .shouldFailOnError(false)
                .resultFormat(ResultFormatType.JSON)
                .result(jsonFile.toString());
        long started = System.nanoTime();
        Collection<RunResult> results = new Runner(options.build()).run();
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;

        String report = report(results, readStats(statsFile), backends, threads, broadcasts, warmups, iterations,
                channels, window, seconds);
        Files.writeString(out, report, StandardCharsets.UTF_8);
        Files.deleteIfExists(statsFile);
        System.out.println();
        System.out.println(report);
        System.out.println("Written to " + out + " (raw JMH results: " + jsonFile.getFileName() + ")");
    }

    /** Measured-iteration outcome of one backend x threads, from the forks' stats file. */
    static final class Outcome {
        long ok;
        long failed;
        long committed;
        long batches;
        long cableFailures;
        long elapsedNanos;
        int iterations;
        String firstFailure = "-";
    }

    static Map<String, Outcome> readStats(Path file) throws IOException {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", -1);
            if (f.length < 11 || !f[3].equals("MEASUREMENT")) {
                continue;
            }
            Outcome o = outcomes.computeIfAbsent(f[0] + "/" + f[1], k -> new Outcome());
            o.iterations++;
            o.elapsedNanos += Long.parseLong(f[4]);
            o.ok += Long.parseLong(f[5]);
            o.failed += Long.parseLong(f[6]);
            o.committed += Long.parseLong(f[7]);
            o.batches += Long.parseLong(f[8]);
            o.cableFailures += Long.parseLong(f[9]);
            if (o.firstFailure.equals("-")) {
                o.firstFailure = f[10];
            }
        }
        return outcomes;
    }

    static String report(Collection<RunResult> results, Map<String, Outcome> outcomes, String[] backends,
            String[] threads, int broadcasts, int warmups, int iterations, String channels, String window,
            long seconds) {
        Map<String, Statistics> timings = new LinkedHashMap<>();
        for (RunResult result : results) {
            String key = result.getParams().getParam("backend") + "/" + result.getParams().getParam("threads");
            timings.put(key, result.getPrimaryResult().getStatistics());
        }
        StringBuilder md = new StringBuilder();
        md.append("# Quarkus Cable broadcast throughput\n\n");
        md.append("Broadcasts per second to commit: ").append(String.format(Locale.ROOT, "%,d", broadcasts))
                .append(" broadcasts per operation, sent by 1 thread or split over 5 or 20 threads (each sends its share and")
                .append(" is joined), after the method of the Rails cache benchmark (seeds/004). A Cable broadcast")
                .append(" counts once its `CompletionStage` completed (row committed; memory adapter: accepted); a")
                .append(" Redis PUBLISH once its reply arrived. JMH single-shot: ").append(warmups)
                .append(" warm-up + ").append(iterations).append(" measured operations per row, 1 fork each.")
                .append(" \"Mean\" is ").append(broadcasts).append(" / mean operation time; \"best\" uses the fastest")
                .append(" operation. \"x Redis\" = mean broadcasts/s divided by Redis PUBLISH's mean, same thread")
                .append(" count, same run.\n\n");
        md.append("| Backend | Threads | Mean op (ms) | Broadcasts/s (mean) | Broadcasts/s (best) | x Redis PUBLISH |")
                .append(" Failed | Avg batch | ms/batch |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<String> anomalies = new ArrayList<>();
        for (String t : threads) {
            Statistics redis = timings.get("redis/" + t);
            for (String backend : backends) {
                String key = backend + "/" + t;
                Statistics s = timings.get(key);
                Outcome o = outcomes.get(key);
                if (s == null) {
                    md.append("| ").append(label(backend)).append(" | ").append(t)
                            .append(" | did not run (see log) | | | | | | |\n");
                    anomalies.add(label(backend) + " x " + t + " threads did not produce a result (fork failed?)");
                    continue;
                }
                double meanMs = s.getMean();
                int size = BroadcastThroughput.operationSize(backend, broadcasts);
                double rate = size / (meanMs / 1000.0);
                double best = size / (s.getMin() / 1000.0);
                String ratio = redis == null ? "n/a"
                        : String.format(Locale.ROOT, "%.2f", rate / (broadcasts / (redis.getMean() / 1000.0)));
                String failed = o == null ? "?" : Long.toString(o.failed);
                String avgBatch = "";
                String msPerBatch = "";
                if (o != null && o.batches > 0) {
                    avgBatch = String.format(Locale.ROOT, "%.1f", (double) o.committed / o.batches);
                    msPerBatch = String.format(Locale.ROOT, "%.2f", o.elapsedNanos / 1e6 / o.batches);
                } else if (o != null && o.batches == 0 && o.committed > 0) {
                    avgBatch = "n/a (sync)";
                }
                md.append("| ").append(label(backend)).append(" | ").append(t)
                        .append(String.format(Locale.ROOT, " | %,.0f | %,.0f | %,.0f | %s | %s | %s | %s |\n", meanMs,
                                rate, best, ratio, failed, avgBatch, msPerBatch));
                if (o == null) {
                    anomalies.add(label(backend) + " x " + t + ": no per-iteration stats recorded");
                } else {
                    long expected = (long) size * o.iterations;
                    if (o.failed > 0 || o.ok != expected) {
                        anomalies.add(String.format(Locale.ROOT, "%s x %s: %d of %d broadcasts failed (%d ok); first: %s",
                                label(backend), t, o.failed, expected, o.ok, o.firstFailure));
                    }
                    if (o.cableFailures > 0) {
                        anomalies.add(String.format(Locale.ROOT, "%s x %s: CableStats counted %d failures",
                                label(backend), t, o.cableFailures));
                    }
                    if (o.committed >= 0 && o.committed != o.ok && o.ok == expected) {
                        anomalies.add(String.format(Locale.ROOT, "%s x %s: %d completed but CableStats.committed grew by %d",
                                label(backend), t, o.ok, o.committed));
                    }
                }
            }
        }
        if (Arrays.stream(backends).anyMatch(backend -> backend.endsWith("-sql"))) {
            md.append("\n\"SQL cable_broadcast\" rows: each thread calls the SQL broadcast on a JDBC connection of its own in")
                    .append(" autocommit mode, one call (one transaction) at a time, as a SQL client publishing one event per")
                    .append(" transaction does; they bypass the writer, so there is no batch. Their operations are ")
                    .append(String.format(Locale.ROOT, "%,d", BroadcastThroughput.operationSize("x-sql", broadcasts)))
                    .append(" broadcasts (`bench.sqlBroadcasts`).\n");
        }
        md.append("\n").append(anomalies.isEmpty() ? "No failures: every broadcast of every measured operation completed."
                : "**Anomalies:**\n\n- " + String.join("\n- ", anomalies)).append("\n\n");
        md.append("Avg batch = `CableStats.committed / CableStats.batches` over the measured operations (broadcasts per")
                .append(" writer transaction; the writer's batch size limit is ").append(Backend.config().writer().batchSize())
                .append("); ms/batch = measured time / batches,")
                .append(" i.e. the cost of one writer transaction while the single writer thread is saturated.\n\n");
        md.append("## Setup\n\n");
        md.append(
                "- Cable: `CableEngine` built directly from the runtime classes (no Quarkus boot), the configuration defaults")
                .append(" (batch delay 0, queue capacity ").append(Backend.config().writer().queueCapacity())
                .append(", autotrim ").append(Backend.databaseConfig().trim().enabled())
                .append(", writer batch size ").append(Backend.config().writer().batchSize())
                .append("), Agroal pool (2..8 connections) per database, schema created by the engine; `cable_messages`")
                .append(" and `cable_channels` emptied with DELETE before every operation (not timed). No subscribers.")
                .append(" Log level INFO (as in a Quarkus application).\n");
        md.append("- Each sending thread keeps at most ").append(window)
                .append(" broadcasts in flight (a semaphore released on completion), at most the writer queue's capacity")
                .append(" divided by the thread count (")
                .append(Backend.config().writer().queueCapacity()).append(" / 20 = ")
                .append(Backend.cableWindow(20, Integer.parseInt(window)))
                .append(" at 20 threads), so the writer queue never overflows.\n");
        md.append("- Broadcasts rotate over ").append(channels).append(" channels (`bench:0`...), payload `")
                .append(Backend.PAYLOAD).append("` (").append(Backend.PAYLOAD.length()).append(" bytes).\n");
        md.append("- Redis PUBLISH: Jedis, one connection per thread, synchronous (each PUBLISH waits for its reply).")
                .append(" redis-pipelined (for reference, not the baseline): the same connections, pipelines of ")
                .append(window).append(" PUBLISHes.\n");
        md.append("- JDBC URLs: h2 `").append(Backend.jdbcUrl("h2")).append("`, postgresql `")
                .append(Backend.jdbcUrl("postgresql")).append("`, mariadb `").append(Backend.jdbcUrl("mariadb"))
                .append("` (driver defaults).\n");
        md.append("\n## Machine\n\n");
        md.append("- Date: ").append(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)).append("\n");
        md.append("- nproc: ").append(Runtime.getRuntime().availableProcessors()).append(" (")
                .append(cpuModel()).append(")\n");
        md.append("- Memory: ").append(memTotal()).append("\n");
        md.append("- JDK: ").append(System.getProperty("java.vm.vendor")).append(" ")
                .append(System.getProperty("java.vm.name")).append(" ").append(System.getProperty("java.runtime.version"))
                .append("; JVM args of forks: -Xms1g -Xmx1g\n");
        md.append("- OS: ").append(System.getProperty("os.name")).append(" ").append(System.getProperty("os.version"))
                .append(" ").append(System.getProperty("os.arch")).append("\n");
        md.append("- PostgreSQL: ").append(dbVersion("postgresql", "SHOW server_version")).append("\n");
        md.append("- MariaDB: ").append(dbVersion("mariadb", "SELECT VERSION()")).append("\n");
        md.append("- H2: ").append(dbVersion("h2", "SELECT H2VERSION()")).append(" (embedded, in-memory)\n");
        md.append("- Redis: ").append(redisVersion()).append("\n");
        md.append("- Services and benchmark share the same ").append(Runtime.getRuntime().availableProcessors())
                .append(" cores.\n");
        String rev = System.getProperty("bench.gitRev");
        if (rev != null) {
            md.append("- Source revision: ").append(rev).append("\n");
        }
        md.append("- Wall time of the whole run: ").append(seconds).append(" s\n");
        md.append("\nCommand: `").append(Backend.prop("bench.command", "java -jar bench/target/quarkus-cable-bench.jar"))
                .append("`\n");
        return md.toString();
    }

    private static String label(String backend) {
        return switch (backend) {
            case "memory" -> "Cable memory adapter";
            case "h2" -> "Cable H2 (in-memory)";
            case "postgresql" -> "Cable PostgreSQL";
            case "mariadb" -> "Cable MariaDB";
            case "postgresql-sql" -> "SQL cable_broadcast, PostgreSQL";
            case "mariadb-sql" -> "SQL CALL cable_broadcast, MariaDB";
            case "redis" -> "Redis PUBLISH";
            case "redis-pipelined" -> "Redis PUBLISH, pipelined";
            default -> backend;
        };
    }

    private static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name")).findFirst().map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .orElse("unknown CPU");
        } catch (IOException | RuntimeException e) {
            return "unknown CPU";
        }
    }

    private static String memTotal() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/meminfo"))) {
            return lines.filter(l -> l.startsWith("MemTotal")).findFirst()
                    .map(l -> Arrays.stream(l.split("\\s+")).skip(1).findFirst()
                            .map(kb -> String.format(Locale.ROOT, "%.1f GiB", Long.parseLong(kb) / 1024.0 / 1024.0))
                            .orElse("?"))
                    .orElse("?");
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    private static String dbVersion(String dbKind, String query) {
        try (AgroalDataSource ds = Backend.dataSource(dbKind);
                Connection c = ds.getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(query)) {
            r.next();
            return r.getString(1) + " (" + c.getMetaData().getDriverName() + " " + c.getMetaData().getDriverVersion() + ")";
        } catch (Exception e) {
            return "unavailable (" + e.getMessage() + ")";
        }
    }

    private static String redisVersion() {
        try (Jedis jedis = new Jedis(Backend.prop("bench.redis.host", "127.0.0.1"),
                Integer.parseInt(Backend.prop("bench.redis.port", "6379")))) {
            return jedis.info("server").lines().filter(l -> l.startsWith("redis_version:")).findFirst()
                    .map(l -> l.substring("redis_version:".length()).strip()).orElse("?")
                    + " (Jedis " + jedisVersion() + ")";
        } catch (Exception e) {
            return "unavailable (" + e.getMessage() + ")";
        }
    }

    private static String jedisVersion() {
        try (var in = Jedis.class.getResourceAsStream("/META-INF/maven/redis.clients/jedis/pom.properties")) {
            Properties pom = new Properties();
            pom.load(in);
            return pom.getProperty("version", "?");
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }
}
