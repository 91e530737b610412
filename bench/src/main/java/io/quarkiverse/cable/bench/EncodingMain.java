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
 * Runs {@link BroadcastEncoding} and {@link FanoutTransport} and writes results/encoding.md: microseconds per fan-out
 * (10 broadcasts x 100 subscribers) for encode-once and encode-per-subscriber, and their ratio, per payload and frame
 * shape; then the Action Cable paths through a real WebSocket encoder.
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
        md.append(transportTable(new Runner(new OptionsBuilder()
                .include(FanoutTransport.class.getName())
                .jvmArgs("-Xms512m", "-Xmx512m")
                .build()).run()));
        md.append("\nMachine: ").append(Runtime.getRuntime().availableProcessors()).append(" CPUs, JDK ")
                .append(System.getProperty("java.vm.version")).append(".\n\nCommand: `bench/run-encoding.sh`\n");
        Files.writeString(out, md);
        System.out.println(md);
    }

    /**
     * The {@link FanoutTransport} table: the four Action Cable paths and the one-buffer-write floor, each per payload,
     * with the ratios the encode-once goal is stated in.
     */
    private static String transportTable(Collection<RunResult> results) {
        Map<String, Map<String, double[]>> byPayload = new LinkedHashMap<>();
        for (RunResult result : results) {
            String benchmark = result.getParams().getBenchmark();
            byPayload.computeIfAbsent(result.getParams().getParam("payload"), k -> new LinkedHashMap<>())
                    .put(benchmark.substring(benchmark.lastIndexOf('.') + 1), new double[] {
                            result.getPrimaryResult().getScore(), result.getPrimaryResult().getScoreError() });
        }
        StringBuilder md = new StringBuilder("\n## Through a real transport (Action Cable frames)\n\n")
                .append("The same 10 x 100 fan-out written to 100 Netty channels with the server-side WebSocket")
                .append(" frame encoder (`FanoutTransport`). Per subscriber: frame built and converted to UTF-8 per")
                .append(" connection; once as text: built once, converted per connection (`writeTextMessage(String)`);")
                .append(" once, payload shared: the cable's `SharedTextFrame` payload, a view per connection in a frame")
                .append(" of its own (the cable on a compressed connection); once, whole frame: header and payload")
                .append(" encoded once, the same buffer written to every connection past the encoder (the cable on")
                .append(" every other connection); buffer write: the payload bytes written to each channel as a plain")
                .append(" buffer (the floor).\n\n")
                .append("| Payload | Per subscriber (us) | Once as text (us) | Once, payload shared (us) |")
                .append(" Once, whole frame (us) | Buffer write (us) | Per subscriber / whole frame |")
                .append(" Whole frame / buffer write |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Map.Entry<String, Map<String, double[]>> row : byPayload.entrySet()) {
            Map<String, double[]> v = row.getValue();
            double[] per = v.get("perSubscriber");
            double[] text = v.get("onceAsText");
            double[] payload = v.get("oncePayload");
            double[] whole = v.get("onceWhole");
            double[] floor = v.get("bufferWrite");
            md.append(String.format(Locale.ROOT,
                    "| %s | %.1f ± %.1f | %.1f ± %.1f | %.1f ± %.1f | %.1f ± %.1f | %.1f ± %.1f | %.2fx | %.2fx |%n",
                    row.getKey(), per[0], per[1], text[0], text[1], payload[0], payload[1], whole[0], whole[1],
                    floor[0], floor[1], per[0] / whole[0], whole[0] / floor[0]));
        }
        return md.toString();
    }
}
