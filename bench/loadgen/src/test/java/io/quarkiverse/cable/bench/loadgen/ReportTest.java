package io.quarkiverse.cable.bench.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

    @TempDir
    Path dir;

    @Test
    void dividesEachBackendByTheBaselineAtTheSameUserCount() throws IOException {
        Path in = Files.createDirectories(dir.resolve("runs"));
        run("redis", 100, 10.0, 20.0, 100.0).write(in.resolve("redis-steady-100.json"));
        run("cable-postgresql", 100, 30.0, 40.0, 50.0).write(in.resolve("pg-steady-100.json"));
        run("cable-postgresql", 200, 35.0, 45.0, 60.0).write(in.resolve("pg-steady-200.json"));
        Files.writeString(in.resolve("k6-summary.json"), "{\"metrics\":{}}"); // not a run file: skipped
        Path out = dir.resolve("report");

        assertThat(new Report(in, out, "Test", "2 cores", "redis", true).write()).as("clean runs pass the check")
                .isTrue();

        String md = Files.readString(out.resolve("results.md"));
        assertThat(md).contains("| backend | 100 users | 200 users |");
        assertThat(md).contains("| redis | 1.00× / 1.00× | – |");
        assertThat(md).contains("| cable-postgresql | 2.00× / 0.50× | – |"); // p95 40 / 20; 50 / 100 round trips/s
        assertThat(md).contains("**Missing baseline:** no `redis` run for 200 users");
        assertThat(md).contains("| cable-postgresql | 40.0 (30.0) | 45.0 (35.0) |");
        assertThat(md).contains("**Machine:** 2 cores");

        List<String> csv = Files.readAllLines(out.resolve("results.csv"));
        assertThat(csv).hasSize(4);
        assertThat(csv.get(0)).startsWith("file,backend,scenario,users,");
        assertThat(csv).anyMatch(line -> line.startsWith("redis-steady-100.json,redis,steady,100,"));

        for (String chart : List.of("steady-rtt-p95.png", "steady-rtt-p50.png")) {
            assertThat(out.resolve(chart)).isNotEmptyFile();
            assertThat(md).contains("](" + chart + ")");
        }
    }

    @Test
    void theCheckFailsOnARunThatCountedAFailure() throws IOException {
        Path in = Files.createDirectories(dir.resolve("runs"));
        run("redis", 100, 10.0, 20.0, 100.0).write(in.resolve("redis-steady-100.json"));
        RunResult clean = run("cable-h2", 100, 10.0, 20.0, 100.0);
        RunResult lostOne = new RunResult(clean.backend(), clean.scenario(), clean.users(), clean.virtualUsers(),
                clean.url(), clean.parameters(), clean.startedAt(), clean.endedAt(), clean.durationSeconds(),
                clean.connectionsAttempted(), clean.connectionFailures(), clean.subscriptionFailures(), 1, 1,
                clean.messagesSent(), clean.messagesReceived() - 1, clean.roundTripsOk() - 1, 1,
                clean.iterationsCompleted(), clean.iterationsFailed(), clean.iterationsInterrupted(),
                clean.iterationsPerSecond(), clean.unfinishedVirtualUsers(), clean.messagesPerSecond(), clean.rtt(),
                clean.connect(), clean.subscribe(), clean.totalTimeMs(), clean.fanout(), null, List.of("pong timed out"));
        lostOne.write(in.resolve("h2-steady-100.json"));

        assertThat(lostOne.problems()).containsExactly("1 failed round trips", "1 invalid messages");
        assertThat(new Report(in, dir.resolve("report"), "Test", "", "redis", true).write()).isFalse();
        assertThat(new Report(in, dir.resolve("report"), "Test", "", "redis", false).write()).isTrue();
    }

    @Test
    void aRunThatHeldConnectionsReportsTheServerHeapEachCost() throws IOException {
        Path in = Files.createDirectories(dir.resolve("held"));
        long before = 40L << 20;
        run("redis", 100, 10.0, 20.0, 100.0, null).write(in.resolve("redis-steady-100.json"));
        run("cable-postgresql", 100, 10.0, 20.0, 100.0,
                new RunResult.Heap(before, before + 100 * 6_000L, before + 4_096, 100, 6_000.0, null))
                .write(in.resolve("pg-steady-100.json"));

        assertThat(new Report(in, dir.resolve("held-report"), "Test", "", "redis", true).write()).isTrue();
        String md = Files.readString(dir.resolve("held-report/results.md"));
        assertThat(md).contains("## Server heap per held connection")
                .contains("| `pg-steady-100.json` | cable-postgresql | 100 | 40.0 | 40.6 | 40.0 | 6000 |  |")
                .doesNotContain("`redis-steady-100.json` | redis");
        assertThat(Files.readString(dir.resolve("held-report/results.csv")))
                .contains(",41943040,42543040,41947136,100,6000.000");

        // A run that asked for the heap and could not read it fails the check, as a smoke run must.
        RunResult unread = run("cable-h2", 100, 10.0, 20.0, 100.0,
                new RunResult.Heap(null, null, null, 0, null, "no reading before the subscribers connected: refused"));
        assertThat(unread.problems()).containsExactly(
                "1 run without its heap per connection: no reading before the subscribers connected: refused");
    }

    private static RunResult run(String backend, int users, double p50, double p95, double perSecond) {
        return run(backend, users, p50, p95, perSecond, null);
    }

    private static RunResult run(String backend, int users, double p50, double p95, double perSecond,
            RunResult.Heap heap) {
        RunOptions.Parameters parameters = new RunOptions.Parameters(90, 5, 64, 60_000, 60, 500, 1000, users / 5, 90,
                5, 100, 65, 10, 90, 15, 10, 30, backend, backend + "-fanout", false);
        LatencySummary rtt = new LatencySummary(1000, p50, p50, p95, p95 + 1, p95 + 2);
        LatencySummary connect = new LatencySummary(100, 2, 2, 3, 4, 5);
        return new RunResult(backend, "steady", users, users, "ws://127.0.0.1:8090/cable", parameters,
                "2026-01-01T00:00:00Z", "2026-01-01T00:01:30Z", 90, 100, 0, 0, 0, 0, 1000, 1000, 1000, 0, 200, 0, 0,
                2.2, 0, perSecond, rtt, connect, connect, null, null, heap, List.of());
    }
}
