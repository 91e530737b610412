package io.quarkiverse.cable.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.IterationParams;

import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.spi.Failure;

/**
 * Broadcast throughput to commit, after the method of the Rails cache benchmark (seeds/004): one operation is
 * {@code broadcasts} broadcasts (100,000), sent by {@code threads} threads that each send {@code broadcasts / threads}
 * and are then joined. A Cable broadcast counts once its stage completed (the row is committed); a Redis PUBLISH once
 * its reply arrived.
 * <p>
 * Single-shot: JMH times each operation once per iteration. Tables are emptied before every iteration (not timed).
 * Per-iteration outcome and Cable counters are appended to the file named by {@code -Dbench.statsFile}, which
 * {@link ThroughputMain} reads back to report failures and batch sizes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
public class BroadcastThroughput {

    @Param({ "memory", "h2", "postgresql", "postgresql-sql", "mariadb", "mariadb-sql", "redis", "redis-pipelined" })
    public String backend;

    @Param({ "1", "5" })
    public int threads;

    @Param({ "100000" })
    public int broadcasts;

    /** Broadcasts rotate over this many channels ("bench:0" ...), the same set for every thread. */
    @Param({ "10" })
    public int channels;

    /** Unacknowledged broadcasts per thread (Cable), or pipeline depth (redis-pipelined). */
    @Param({ "2000" })
    public int window;

    /**
     * Broadcasts per operation for this backend: {@link #broadcasts}, or {@code bench.sqlBroadcasts} for the SQL
     * broadcast ({@code *-sql}), whose one-transaction-per-call rate is two orders of magnitude below the writer's.
     */
    private int operationSize;
    private Backend target;
    private ExecutorService workers;
    private String[] channelNames;
    private Backend.Tally tally;
    private long committedBefore;
    private long batchesBefore;
    private long failuresBefore;
    private long startedNanos;
    private long elapsedNanos;

    /** Strong references: the levels set below must outlive the logger objects' weak registration. */
    private static final java.util.logging.Logger[] LOGGERS = { java.util.logging.Logger.getLogger(""),
            java.util.logging.Logger.getLogger("org.postgresql"), java.util.logging.Logger.getLogger("org.mariadb"),
            java.util.logging.Logger.getLogger("io.agroal") };

    @Setup(Level.Trial)
    public void startTrial() throws Exception {
        // Outside Quarkus nobody configures logging, and the JBoss LogManager left unconfigured lets FINEST through:
        // the PostgreSQL driver then formats every bound parameter for a trace line. Quarkus' default is INFO.
        for (java.util.logging.Logger logger : LOGGERS) {
            logger.setLevel(java.util.logging.Level.INFO);
        }
        System.out.println("Logging: " + java.util.logging.LogManager.getLogManager().getClass().getName()
                + ", org.postgresql FINEST enabled: "
                + java.util.logging.Logger.getLogger("org.postgresql.core.v3.QueryExecutorImpl")
                        .isLoggable(java.util.logging.Level.FINEST));
        operationSize = operationSize(backend, broadcasts);
        if (operationSize % threads != 0) {
            throw new IllegalArgumentException("broadcasts (" + operationSize + ") must divide by threads (" + threads
                    + ")");
        }
        channelNames = new String[channels];
        for (int i = 0; i < channels; i++) {
            channelNames[i] = "bench:" + i;
        }
        target = Backend.create(backend, threads, window);
        target.start();
        workers = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "bench-worker");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Setup(Level.Iteration)
    public void startIteration() throws Exception {
        target.clean();
        tally = new Backend.Tally();
        CableStats stats = target.stats();
        if (stats != null) {
            committedBefore = stats.committed();
            batchesBefore = stats.batches();
            failuresBefore = failureSum(stats);
        }
    }

    @Benchmark
    public long broadcast() throws Exception {
        int perThread = operationSize / threads;
        long start = System.nanoTime();
        List<Future<?>> running = new ArrayList<>(threads);
        for (int t = 0; t < threads; t++) {
            int thread = t;
            running.add(workers.submit(() -> {
                target.run(thread, perThread, channelNames, tally);
                return null;
            }));
        }
        for (Future<?> future : running) {
            future.get();
        }
        elapsedNanos = System.nanoTime() - start;
        return tally.ok.sum();
    }

    @TearDown(Level.Iteration)
    public void endIteration(IterationParams iteration) throws IOException {
        CableStats stats = target.stats();
        long committed = stats == null ? -1 : stats.committed() - committedBefore;
        long batches = stats == null ? -1 : stats.batches() - batchesBefore;
        long cableFailures = stats == null ? -1 : failureSum(stats) - failuresBefore;
        Throwable first = tally.firstFailure.get();
        String line = String.join("\t", backend, Integer.toString(threads), Integer.toString(operationSize),
                iteration.getType().name(), Long.toString(elapsedNanos), Long.toString(tally.ok.sum()),
                Long.toString(tally.failed.sum()), Long.toString(committed), Long.toString(batches),
                Long.toString(cableFailures), first == null ? "-" : oneLine(first.toString())) + "\n";
        String file = System.getProperty("bench.statsFile");
        if (file != null) {
            Files.writeString(Path.of(file), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
        if (tally.failed.sum() > 0) {
            System.out.println("FAILURES: " + tally.failed.sum() + " of " + operationSize + ", first: " + first);
        }
    }

    @TearDown(Level.Trial)
    public void stopTrial() throws Exception {
        workers.shutdownNow();
        target.stop();
    }

    /** {@code broadcasts}, or {@code bench.sqlBroadcasts} (default: the same) for a SQL broadcast backend. */
    static int operationSize(String backend, int broadcasts) {
        return backend.endsWith("-sql") ? Integer.parseInt(Backend.prop("bench.sqlBroadcasts", Integer.toString(broadcasts)))
                : broadcasts;
    }

    private static long failureSum(CableStats stats) {
        long sum = 0;
        for (Failure kind : Failure.values()) {
            sum += stats.failures(kind);
        }
        return sum;
    }

    private static String oneLine(String text) {
        return text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }
}
