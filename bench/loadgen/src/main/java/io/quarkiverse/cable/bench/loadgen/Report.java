package io.quarkiverse.cable.bench.loadgen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The {@code report} command: reads every run file under a directory and writes {@code results.csv} (one row per
 * run), {@code results.md} (tables per scenario family, ratios to the baseline backend) and the PNG charts it links.
 */
final class Report {

    private final Path in;
    private final Path out;
    private final String title;
    private final String machine;
    private final String baseline;
    private final boolean check;

    Report(Path in, Path out, String title, String machine, String baseline, boolean check) {
        this.in = in;
        this.out = out;
        this.title = title;
        this.machine = machine;
        this.baseline = baseline;
        this.check = check;
    }

    static Report parse(Arguments args) throws UsageException {
        Report report = new Report(Path.of(args.required("in")), Path.of(args.required("out")),
                args.text("title", "Quarkus Cable load test"), args.text("machine", ""),
                args.text("baseline", "redis"), Boolean.parseBoolean(args.text("check", "false")));
        args.requireAllUsed();
        return report;
    }

    /** @return false when {@code --check} is on and a run counted anything wrong (listed on stderr) */
    boolean write() throws IOException {
        RunSet runs = new RunSet(load(), baseline);
        if (runs.all().isEmpty()) {
            throw new IOException("no run files (*.json written by 'run') under " + in);
        }
        Files.createDirectories(out);
        Files.writeString(out.resolve("results.csv"), ResultTables.csv(runs.all()));
        Map<String, List<String>> charts = writeCharts(runs);
        Files.writeString(out.resolve("results.md"), new ResultTables(runs).markdown(title, machine, in, charts));
        System.out.println("report: " + runs.all().size() + " runs -> " + out.toAbsolutePath());
        if (!check) {
            return true;
        }
        List<String> problems = runs.all().stream()
                .flatMap(run -> run.result().problems().stream().map(problem -> run.path().getFileName() + ": " + problem))
                .toList();
        problems.forEach(problem -> System.err.println("check failed: " + problem));
        return problems.isEmpty();
    }

    private List<RunSet.RunFile> load() throws IOException {
        if (!Files.isDirectory(in)) {
            throw new IOException("not a directory: " + in);
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(in)) {
            files = walk.filter(file -> file.toString().endsWith(".json") && Files.isRegularFile(file)).sorted()
                    .toList();
        }
        List<RunSet.RunFile> runs = new ArrayList<>();
        for (Path file : files) {
            try {
                RunResult result = RunResult.read(file);
                if (result.backend() != null && result.scenario() != null && result.rtt() != null
                        && result.startedAt() != null) {
                    runs.add(new RunSet.RunFile(file, result));
                    continue;
                }
            } catch (IOException e) {
                // reported just below, like any other JSON that is not a run file
            }
            System.err.println("report: skipped " + file + " (not a run file)");
        }
        return runs;
    }

    /** @return chart file names per family, in the order the markdown shows them */
    private Map<String, List<String>> writeCharts(RunSet runs) throws IOException {
        // Charts are drawn off-screen; without this AWT looks for a display.
        System.setProperty("java.awt.headless", "true");
        Charts charts = new Charts(runs.allBackends());
        Map<String, List<String>> files = new LinkedHashMap<>();
        for (String family : runs.families()) {
            List<String> names = new ArrayList<>();
            boolean fanout = family.startsWith("fanout");
            String x = fanout ? "subscribers" : "users";
            for (String percentile : List.of("p95", "p50")) {
                String name = family + (fanout ? "-latency-" : "-rtt-") + percentile + ".png";
                String what = fanout ? "delivery latency " + percentile : "ping RTT " + percentile;
                charts.line(out.resolve(name), RunSet.title(family) + ": " + what + " (" + title + ")", x,
                        what + " (ms)",
                        runs.series(family, run -> percentile.equals("p95") ? latency(run).p95() : latency(run).p50()));
                names.add(name);
            }
            if (family.equals("storm")) {
                String name = "storm-total-time.png";
                charts.bars(out.resolve(name), "storm: time for the whole herd (" + title + ")", x, "total time (ms)",
                        runs.series(family, run -> run.totalTimeMs() == null ? 0 : run.totalTimeMs()));
                names.add(name);
            }
            files.put(family, names);
        }
        return files;
    }

    /** The latency a family is judged by: ping RTT, or for fan-out the delivery latency. */
    static LatencySummary latency(RunResult run) {
        return run.fanout() == null ? run.rtt() : run.fanout().latency();
    }
}
