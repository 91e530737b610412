package io.quarkiverse.cable.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link BroadcastEncoding} and writes results/encoding.md: microseconds per fan-out (10 broadcasts x 100
 * subscribers) for encode-once and encode-per-subscriber, and their ratio, per payload and frame shape.
 */
public final class EncodingMain {

    public static void main(String[] args) throws Exception {
        Path out = Path.of(Backend.prop("bench.out", "results/encoding.md")).toAbsolutePath();
        Files.createDirectories(out.getParent());
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include(BroadcastEncoding.class.getName())
                .jvmArgs("-Xms512m", "-Xmx512m")
                .build()).run();

        Map<String, double[]> rows = new LinkedHashMap<>();
        for (RunResult result : results) {
            String payload = result.getParams().getParam("payload");
            String shape = result.getParams().getParam("shape");
            String transport = result.getParams().getParam("transport");
            double[] row = rows.computeIfAbsent(shape + "|" + payload + "|" + transport, k -> new double[4]);
            boolean once = result.getParams().getBenchmark().endsWith("encodeOnce");
            row[once ? 0 : 2] = result.getPrimaryResult().getScore();
            row[once ? 1 : 3] = result.getPrimaryResult().getScoreError();
        }
        StringBuilder md = new StringBuilder("# Encode-once fan-out\n\n")
                .append("10 broadcasts to 100 subscribers (JMH average time, 1 fork, 3 x 1 s warm-up, 5 x 1 s measured;")
                .append(" error = 99.9% confidence half-width). Transport utf8: each frame is also turned into UTF-8")
                .append(" bytes per subscriber, as Vert.x does for every text frame (the ratio a real fan-out sees);")
                .append(" none: the encoding work alone.\n\n")
                .append("| Frame shape | Payload | Transport | Encode once (us) | Encode per subscriber (us) |")
                .append(" Per subscriber / once |\n")
                .append("|---|---|---|---:|---:|---:|\n");
        for (Map.Entry<String, double[]> row : rows.entrySet()) {
            String[] key = row.getKey().split("\\|");
            double[] v = row.getValue();
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %.1f ± %.1f | %.1f ± %.1f | %.2fx |%n", key[0],
                    key[1], key[2], v[0], v[1], v[2], v[3], v[2] / v[0]));
        }
        md.append("\nMachine: ").append(Runtime.getRuntime().availableProcessors()).append(" CPUs, JDK ")
                .append(System.getProperty("java.vm.version")).append(".\n\nCommand: `bench/run-encoding.sh`\n");
        Files.writeString(out, md);
        System.out.println(md);
    }
}
