package io.quarkiverse.cable.bench.loadgen;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The report's text: {@code results.csv} with one row per run, and the markdown tables (rows = backends, columns = user
 * counts) per scenario family, with the ratios to the baseline backend at the same user count.
 */
final class ResultTables {

    private static final String NONE = "–";

    private static final List<String> CSV_COLUMNS = List.of("file", "backend", "scenario", "users", "virtualUsers",
            "startedAt", "durationSeconds", "connectionsAttempted", "connectionFailures", "subscriptionFailures",
            "receiveFailures", "invalidMessages", "messagesSent", "messagesReceived", "roundTripsOk",
            "roundTripsFailed", "failures", "rttP50", "rttP95", "rttP99", "rttMax", "rttMean", "connectP50",
            "connectP95", "subscribeP50", "subscribeP95", "messagesPerSecond", "iterationsCompleted",
            "iterationsFailed", "iterationsInterrupted", "iterationsPerSecond", "totalTimeMs", "fanoutRate",
            "published", "expectedDeliveries", "deliveriesReceived", "gaps", "duplicates", "outOfOrder",
            "subscribersCompleted", "latencyP50", "latencyP95", "latencyP99", "latencyMax", "heapBeforeBytes",
            "heapHeldBytes", "heapAfterBytes", "heapHeldConnections", "heapBytesPerConnection");

    private final RunSet runs;
    private final StringBuilder md = new StringBuilder();

    ResultTables(RunSet runs) {
        this.runs = runs;
    }

    static String csv(List<RunSet.RunFile> runs) {
        StringBuilder csv = new StringBuilder(String.join(",", CSV_COLUMNS)).append('\n');
        for (RunSet.RunFile file : runs) {
            RunResult r = file.result();
            RunResult.Fanout f = r.fanout();
            List<Object> row = new ArrayList<>(List.of(file.path().getFileName(), r.backend(), r.scenario(), r.users(),
                    r.virtualUsers(), r.startedAt(), r.durationSeconds(), r.connectionsAttempted(),
                    r.connectionFailures(), r.subscriptionFailures(), r.receiveFailures(), r.invalidMessages(),
                    r.messagesSent(), r.messagesReceived(), r.roundTripsOk(), r.roundTripsFailed(), r.failures(),
                    r.rtt().p50(), r.rtt().p95(), r.rtt().p99(), r.rtt().max(), r.rtt().mean(), r.connect().p50(),
                    r.connect().p95(), r.subscribe().p50(), r.subscribe().p95(), r.messagesPerSecond(),
                    r.iterationsCompleted(), r.iterationsFailed(), r.iterationsInterrupted(),
                    r.iterationsPerSecond()));
            row.add(r.totalTimeMs() == null ? "" : r.totalTimeMs());
            if (f == null) {
                row.addAll(List.of("", "", "", "", "", "", "", "", "", "", "", ""));
            } else {
                row.addAll(List.of(f.rate(), f.published(), f.expectedDeliveries(), f.deliveriesReceived(), f.gaps(),
                        f.duplicates(), f.outOfOrder(), f.subscribersCompleted(), f.latency().p50(),
                        f.latency().p95(), f.latency().p99(), f.latency().max()));
            }
            RunResult.Heap h = r.heap();
            if (h == null) {
                row.addAll(List.of("", "", "", "", ""));
            } else {
                row.addAll(Arrays.asList(blankIfNull(h.beforeBytes()), blankIfNull(h.heldBytes()),
                        blankIfNull(h.afterBytes()), h.heldConnections(), blankIfNull(h.bytesPerConnection())));
            }
            csv.append(row.stream().map(ResultTables::csvField).collect(Collectors.joining(","))).append('\n');
        }
        return csv.toString();
    }

    String markdown(String title, String machine, Path inputDir, Map<String, List<String>> charts) {
        md.append("# ").append(title).append("\n\n");
        if (!machine.isBlank()) {
            md.append("**Machine:** ").append(machine).append("\n\n");
        }
        md.append(runs.all().size()).append(" run files from `").append(inputDir).append("`, report written ")
                .append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append(". Baseline: `").append(runs.baseline())
                .append("`.\n\n");
        md.append("RTT is k6's `cable_action_rtt`: from sending a ping to receiving its pong, in ms; percentiles as k6 "
                + "computes them. Round trips/s are successful round trips per second of the run. Failures are "
                + "failed connections + failed subscriptions + failed round trips (timeouts included); for fan-out, "
                + "plus invalid messages and subscribers that never received the completion marker.\n\n");
        if (!runs.superseded().isEmpty()) {
            md.append("Runs repeated for the same cell: the latest counts; not shown: ")
                    .append(runs.superseded().stream().map(f -> "`" + f.path().getFileName() + "`")
                            .collect(Collectors.joining(", ")))
                    .append(".\n\n");
        }
        for (String family : runs.families()) {
            md.append("## ").append(RunSet.title(family)).append("\n\n");
            Set<String> parameters = distinct(family, ResultTables::parameters);
            md.append("Parameters: ").append(parameters.size() == 1 ? parameters.iterator().next()
                    : "differ between runs: " + String.join("; ", parameters)).append(".\n\n");
            for (String chart : charts.getOrDefault(family, List.of())) {
                md.append("![").append(chart).append("](").append(chart).append(")\n");
            }
            md.append('\n');
            if (family.startsWith("fanout")) {
                fanoutTables(family);
            } else {
                pingTables(family);
            }
        }
        heapTable();
        return md.toString();
    }

    /** Fan-out runs made with {@code --heap-url}: what each held connection costs the server's heap. */
    private void heapTable() {
        List<RunSet.RunFile> measured = runs.all().stream().filter(file -> file.result().heap() != null).toList();
        if (measured.isEmpty()) {
            return;
        }
        md.append("## Server heap per held connection\n\n")
                .append("The server's heap in use after full collections (`GET /bench/heap`): before the subscribers "
                        + "connected, once they were all subscribed and idle (before the publisher started), and "
                        + "after the run. Per connection: (held − before) ÷ connections held.\n\n")
                .append("| run | backend | connections held | before MiB | held MiB | after MiB | bytes per "
                        + "connection | note |\n|---|---|--:|--:|--:|--:|--:|---|\n");
        for (RunSet.RunFile file : measured) {
            RunResult.Heap h = file.result().heap();
            md.append(String.format(Locale.ROOT, "| `%s` | %s | %d | %s | %s | %s | %s | %s |%n",
                    file.path().getFileName(), file.result().backend(), h.heldConnections(), mebibytes(h.beforeBytes()),
                    mebibytes(h.heldBytes()), mebibytes(h.afterBytes()),
                    h.bytesPerConnection() == null ? NONE : String.format(Locale.ROOT, "%.0f", h.bytesPerConnection()),
                    h.problem() == null ? "" : h.problem()));
        }
        md.append('\n');
    }

    private static String mebibytes(Long bytes) {
        return bytes == null ? NONE : String.format(Locale.ROOT, "%.1f", bytes / 1048576.0);
    }

    private static Object blankIfNull(Object value) {
        return value == null ? "" : value;
    }

    private void pingTables(String family) {
        table(family, "RTT p95 ms (p50)", run -> String.format(Locale.ROOT, "%.1f (%.1f)", run.rtt().p95(),
                run.rtt().p50()));
        if (family.equals("churn")) { // one ping per iteration: round trips/s would repeat iterations/s
            md.append("Churn virtual users: ").append(String.join(", ", distinct(family,
                    run -> run.users() + " users → " + run.virtualUsers() + " VUs"))).append(".\n\n");
            table(family, "Iterations/s (connect, subscribe, ping, disconnect)",
                    run -> decimal(run.iterationsPerSecond()));
        } else {
            table(family, "Round trips/s", run -> decimal(run.messagesPerSecond()));
        }
        if (family.equals("storm")) {
            table(family, "Herd total time ms (first connect to last virtual user done)",
                    run -> run.totalTimeMs() == null ? NONE : String.format(Locale.ROOT, "%.0f", run.totalTimeMs()));
        }
        table(family, "Failures (connections / subscriptions / round trips)", run -> run.failures() == 0 ? "0"
                : run.connectionFailures() + " / " + run.subscriptionFailures() + " / " + run.roundTripsFailed());
        ratioTable(family, "p95 RTT", "round trips/s");
    }

    private void fanoutTables(String family) {
        md.append("### Deliveries\n\n| backend | subscribers | published | expected | received | gaps | duplicates | "
                + "out of order | invalid | completed | latency p50 ms | p95 ms | p99 ms | max ms | deliveries/s |\n"
                + "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
        for (String backend : runs.backends(family)) {
            for (int users : runs.users(family)) {
                RunResult run = runs.get(family, backend, users);
                if (run == null) {
                    continue;
                }
                RunResult.Fanout f = run.fanout();
                md.append(String.format(Locale.ROOT,
                        "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d of %d | %.1f | %.1f | %.1f | %.1f "
                                + "| %.1f |%n",
                        backend, users, f.published(), f.expectedDeliveries(), f.deliveriesReceived(), f.gaps(),
                        f.duplicates(), f.outOfOrder(), run.invalidMessages(), f.subscribersCompleted(), users,
                        f.latency().p50(), f.latency().p95(), f.latency().p99(), f.latency().max(),
                        run.messagesPerSecond()));
            }
        }
        md.append('\n');
        table(family, "Delivery latency p95 ms (p50)", run -> String.format(Locale.ROOT, "%.1f (%.1f)",
                run.fanout().latency().p95(), run.fanout().latency().p50()));
        ratioTable(family, "p95 delivery latency", "deliveries/s");
    }

    /** Rows = backends, columns = user counts. */
    private void table(String family, String heading, Function<RunResult, String> cell) {
        List<Integer> users = runs.users(family);
        md.append("### ").append(heading).append("\n\n| backend |");
        users.forEach(u -> md.append(' ').append(u).append(' ').append(unit(family)).append(" |"));
        md.append("\n|---|").append("--:|".repeat(users.size())).append('\n');
        for (String backend : runs.backends(family)) {
            md.append("| ").append(backend).append(" |");
            for (int u : users) {
                RunResult run = runs.get(family, backend, u);
                md.append(' ').append(run == null ? NONE : cell.apply(run)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    /**
     * Each backend's p95 latency and throughput divided by the baseline's at the same user count: latency below 1 and
     * throughput above 1 are better than the baseline.
     */
    private void ratioTable(String family, String latencyName, String throughputName) {
        String baseline = runs.baseline();
        List<Integer> missing = runs.users(family).stream().filter(u -> runs.get(family, baseline, u) == null)
                .toList();
        table(family, "Ratio to " + baseline + " (" + latencyName + " ÷ " + baseline + ", " + throughputName + " ÷ "
                + baseline + ")", run -> {
                    RunResult base = runs.get(family, baseline, run.users());
                    if (base == null) {
                        return NONE;
                    }
                    return ratio(Report.latency(run).p95(), Report.latency(base).p95()) + " / "
                            + ratio(run.messagesPerSecond(), base.messagesPerSecond());
                });
        if (!missing.isEmpty()) {
            md.append("**Missing baseline:** no `").append(baseline).append("` run for ")
                    .append(missing.stream().map(u -> u + " " + unit(family)).collect(Collectors.joining(", ")))
                    .append("; those ratios are left out.\n\n");
        }
    }

    private static String unit(String family) {
        return family.startsWith("fanout") ? "subscribers" : "users";
    }

    static String ratio(double value, double base) {
        return base > 0 ? String.format(Locale.ROOT, "%.2f×", value / base) : NONE;
    }

    /** The scenario's own settings, the ones that must match for runs to compare. */
    static String parameters(RunResult run) {
        RunOptions.Parameters p = run.parameters();
        return switch (run.scenario()) {
            case "steady" -> String.format(Locale.ROOT, "%d s, %d pings per connection, pauses %d–%d ms, "
                    + "payload %d B", p.time(), p.num(), p.minSleepMs(), p.maxSleepMs(), p.payloadBytes());
            case "churn" -> String.format(Locale.ROOT, "%d s, one ping per connection, payload %d B", p.churnTime(),
                    p.payloadBytes());
            case "storm" -> String.format(Locale.ROOT, "%d rounds of connect, subscribe, ping, disconnect, "
                    + "%d ms pause; at most %d s, payload %d B", p.stormRounds(), p.stormSleepMs(),
                    p.stormMaxDurationS(), p.payloadBytes());
            case "fanout" -> String.format(Locale.ROOT, "%d messages/s for %d s (%d messages), warm-up %d s, "
                    + "drain %d s, payload %d B", p.fanoutRate(), p.fanoutTime(), p.fanoutRate() * p.fanoutTime(),
                    p.fanoutWarmup(), p.fanoutDrain(), p.payloadBytes());
            default -> "unknown scenario " + run.scenario();
        };
    }

    /** The different values of a figure over the family's runs, in table order. */
    private Set<String> distinct(String family, Function<RunResult, String> value) {
        Set<String> values = new LinkedHashSet<>();
        for (String backend : runs.backends(family)) {
            for (int users : runs.users(family)) {
                RunResult run = runs.get(family, backend, users);
                if (run != null) {
                    values.add(value.apply(run));
                }
            }
        }
        return values;
    }

    private static String decimal(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    private static String csvField(Object value) {
        String text = value instanceof Double d ? String.format(Locale.ROOT, "%.3f", d) : String.valueOf(value);
        return text.contains(",") || text.contains("\"") || text.contains("\n")
                ? '"' + text.replace("\"", "\"\"") + '"'
                : text;
    }
}
