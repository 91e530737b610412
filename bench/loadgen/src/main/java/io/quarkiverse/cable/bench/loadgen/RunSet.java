package io.quarkiverse.cable.bench.loadgen;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The runs a report is made of, indexed by family (the scenario; fan-out per publish rate, since rates do not
 * compare), backend and user count. When one cell was run more than once the latest run counts and the others are
 * listed in {@link #superseded()}.
 */
final class RunSet {

    /** A run file and where it came from. */
    record RunFile(Path path, RunResult result) {
    }

    private final String baseline;
    private final List<RunFile> all;
    private final Map<String, Map<String, SortedMap<Integer, RunResult>>> cells = new TreeMap<>(RunSet::familyOrder);
    private final List<RunFile> superseded = new ArrayList<>();

    RunSet(List<RunFile> runs, String baseline) {
        this.baseline = baseline;
        this.all = runs.stream().sorted(Comparator.comparing((RunFile run) -> run.result().startedAt())).toList();
        for (RunFile run : all) {
            RunResult result = run.result();
            RunResult previous = cells.computeIfAbsent(family(result), f -> new TreeMap<>())
                    .computeIfAbsent(result.backend(), b -> new TreeMap<>())
                    .put(result.users(), result);
            if (previous != null) {
                superseded.add(all.stream().filter(r -> r.result() == previous).findFirst().orElseThrow());
            }
        }
    }

    /** {@code steady}, {@code storm}, {@code churn}, or {@code fanout-rate<N>}. */
    static String family(RunResult result) {
        return result.fanout() == null ? result.scenario() : "fanout-rate" + result.fanout().rate();
    }

    /** A family as headings and chart titles name it. */
    static String title(String family) {
        return family.startsWith("fanout-rate") ? "fanout at " + family.substring(11) + " messages/s" : family;
    }

    String baseline() {
        return baseline;
    }

    /** Every run, oldest first, superseded ones included. */
    List<RunFile> all() {
        return all;
    }

    List<RunFile> superseded() {
        return superseded;
    }

    List<String> families() {
        return List.copyOf(cells.keySet());
    }

    /** The baseline first, then the others alphabetically. */
    List<String> backends(String family) {
        return orderBackends(cells.get(family).keySet());
    }

    /** Every backend of every family, in the same order, so a backend keeps its colour across charts. */
    List<String> allBackends() {
        TreeSet<String> backends = new TreeSet<>();
        cells.values().forEach(family -> backends.addAll(family.keySet()));
        return orderBackends(backends);
    }

    List<Integer> users(String family) {
        TreeSet<Integer> users = new TreeSet<>();
        cells.get(family).values().forEach(runs -> users.addAll(runs.keySet()));
        return List.copyOf(users);
    }

    /** The run for this cell, or null. */
    RunResult get(String family, String backend, int users) {
        return cells.get(family).getOrDefault(backend, new TreeMap<>()).get(users);
    }

    /** One figure per backend and user count, for a chart. */
    Map<String, SortedMap<Integer, Double>> series(String family, ToDoubleFunction<RunResult> figure) {
        Map<String, SortedMap<Integer, Double>> series = new LinkedHashMap<>();
        for (String backend : backends(family)) {
            SortedMap<Integer, Double> points = new TreeMap<>();
            cells.get(family).get(backend).forEach((users, run) -> points.put(users, figure.applyAsDouble(run)));
            series.put(backend, points);
        }
        return series;
    }

    private List<String> orderBackends(Collection<String> backends) {
        List<String> ordered = new ArrayList<>(new TreeSet<>(backends));
        if (ordered.remove(baseline)) {
            ordered.add(0, baseline);
        }
        return ordered;
    }

    /** The k6 script's order: steady, churn, storm, then fan-out by rate. */
    private static int familyOrder(String a, String b) {
        int byKind = Integer.compare(kindRank(a), kindRank(b));
        if (byKind != 0) {
            return byKind;
        }
        return a.startsWith("fanout-rate") && b.startsWith("fanout-rate")
                ? Integer.compare(Integer.parseInt(a.substring(11)), Integer.parseInt(b.substring(11)))
                : a.compareTo(b);
    }

    private static int kindRank(String family) {
        List<String> order = List.of("steady", "churn", "storm");
        int rank = order.indexOf(family);
        return rank >= 0 ? rank : family.startsWith("fanout") ? order.size() : order.size() + 1;
    }
}
