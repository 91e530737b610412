import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a server's CPU went during a storm, by layer of the stack: the CPU-time samples of flight recordings
 * ({@code jdk.CPUTimeSample}: a thread's stack, Java and native frames alike, each standing for the thread CPU time
 * of its sampling period) of the
 * two sides of a change, each sample counted once for the layer of its top frame ("self") and once for every layer
 * anywhere on its stack ("inclusive"), and the busiest methods, as CPU milliseconds per connection cycle, so two
 * builds that did the same cycles compare directly. The process's whole CPU time (which also counts the collector's
 * and the compiler's threads, which are not sampled) is shown beside it, and the JIT compiler's time (the wall time
 * of its compilations: on a busy CPU it includes their waits). Run by {@code bench/run-storm-profile.sh}.
 *
 * <pre>
 * java bench/profile/CpuByLayer.java &lt;rows&gt; &lt;side&gt;=&lt;cycles&gt;:&lt;cpu ms&gt;:&lt;jit ms&gt;:&lt;a.jfr&gt;[,&lt;b.jfr&gt;...] ...
 * </pre>
 *
 * Several recordings of one side (rounds) are added together, as are their cycles, CPU and JIT compile
 * milliseconds.
 */
public class CpuByLayer {

    /** Layers by class-name prefix, first match wins: the cable, then what it runs on, outermost last. */
    private static final Map<String, String> LAYERS = new LinkedHashMap<>();
    static {
        LAYERS.put("io.quarkiverse.cable.", "Quarkus Cable");
        LAYERS.put("io.quarkus.websockets.next.", "WebSockets Next");
        LAYERS.put("io.quarkus.security.", "Quarkus security");
        LAYERS.put("io.quarkus.vertx.http.", "Quarkus HTTP (Vert.x)");
        LAYERS.put("io.quarkus.arc.", "ArC");
        LAYERS.put("io.quarkus.", "Quarkus, other");
        LAYERS.put("io.smallrye.", "SmallRye, Mutiny");
        LAYERS.put("com.fasterxml.jackson.", "Jackson");
        LAYERS.put("io.vertx.", "Vert.x");
        LAYERS.put("io.netty.", "Netty");
        LAYERS.put("java.", "JDK");
        LAYERS.put("javax.", "JDK");
        LAYERS.put("jdk.", "JDK");
        LAYERS.put("sun.", "JDK");
    }

    public static void main(String[] args) throws IOException {
        int rows = Integer.parseInt(args[0]);
        List<Side> sides = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            sides.add(Side.read(args[i]));
        }
        System.out.println("| Side | Connection cycles | Process CPU (ms) | per cycle (ms) | JIT compiling, wall (ms) | Sampled thread CPU (ms) | per cycle (ms) |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (Side side : sides) {
            System.out.printf(Locale.ROOT, "| %s | %,d | %,.0f | %.3f | %,.0f | %,.0f | %.3f |%n", side.name, side.cycles,
                    side.cpuMillis, side.cpuMillis / side.cycles, side.jitMillis, side.sampledMillis,
                    side.sampledMillis / side.cycles);
        }
        System.out.println();
        table("Layer of the top frame (self), CPU ms per cycle", sides, s -> s.self, rows);
        table("Layer anywhere on the stack (inclusive), CPU ms per cycle", sides, s -> s.inclusive, rows);
        table("Busiest methods (self), CPU ms per cycle", sides, s -> s.methods, rows);
    }

    /** One row per key, the sides' CPU ms per cycle side by side, and the last side minus the first. */
    private static void table(String title, List<Side> sides, Function<Side, Map<String, Double>> counts, int rows) {
        Set<String> keys = new HashSet<>();
        sides.forEach(s -> keys.addAll(counts.apply(s).keySet()));
        Side first = sides.get(0);
        Side last = sides.get(sides.size() - 1);
        ToDoubleFunction<String> largest = key -> Math.max(first.perCycle(counts.apply(first), key),
                last.perCycle(counts.apply(last), key));
        List<String> ordered = new ArrayList<>(keys);
        ordered.sort(Comparator.comparingDouble(largest).reversed());
        System.out.println("." + title);
        StringBuilder header = new StringBuilder("| ");
        sides.forEach(s -> header.append(" | ").append(s.name));
        System.out.println(header.append(sides.size() > 1 ? " | " + last.name + " - " + first.name : "").append(" |"));
        System.out.println("|---" + "|---:".repeat(sides.size() + (sides.size() > 1 ? 1 : 0)) + "|");
        for (String key : ordered.subList(0, Math.min(rows, ordered.size()))) {
            StringBuilder row = new StringBuilder("| ").append(key.replace("|", "\\|"));
            sides.forEach(s -> row.append(String.format(Locale.ROOT, " | %.4f", s.perCycle(counts.apply(s), key))));
            if (sides.size() > 1) {
                row.append(String.format(Locale.ROOT, " | %+.4f",
                        last.perCycle(counts.apply(last), key) - first.perCycle(counts.apply(first), key)));
            }
            System.out.println(row.append(" |"));
        }
        System.out.println();
    }

    private static String layer(String className) {
        for (Map.Entry<String, String> layer : LAYERS.entrySet()) {
            if (className.startsWith(layer.getKey())) {
                return layer.getValue();
            }
        }
        return "other";
    }

    /** Lambdas and hidden classes carry a per-run suffix: one name for every run. */
    private static String method(RecordedFrame frame) {
        String type = frame.getMethod().getType().getName().replaceAll("\\$\\$Lambda.*", "\\$\\$Lambda");
        return type + "." + frame.getMethod().getName();
    }

    private static final class Side {
        final String name;
        long cycles;
        double cpuMillis;
        double jitMillis;
        /** CPU milliseconds the samples stand for, in all and by key. */
        double sampledMillis;
        final Map<String, Double> self = new HashMap<>();
        final Map<String, Double> inclusive = new HashMap<>();
        final Map<String, Double> methods = new HashMap<>();

        Side(String name) {
            this.name = name;
        }

        /** {@code side=cycles:cpuMillis:jitMillis:a.jfr,b.jfr}: the figures are already the rounds' sums. */
        static Side read(String argument) throws IOException {
            String[] nameAndRest = argument.split("=", 2);
            String[] parts = nameAndRest[1].split(":", 4);
            Side side = new Side(nameAndRest[0]);
            side.cycles = Long.parseLong(parts[0]);
            side.cpuMillis = Double.parseDouble(parts[1]);
            side.jitMillis = Double.parseDouble(parts[2]);
            for (String file : parts[3].split(",")) {
                side.add(Path.of(file));
            }
            return side;
        }

        void add(Path recording) throws IOException {
            if (!Files.exists(recording)) {
                throw new IOException("no recording " + recording);
            }
            for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
                if (!event.getEventType().getName().equals("jdk.CPUTimeSample")) {
                    continue;
                }
                RecordedStackTrace stack = event.getStackTrace();
                if (stack == null || stack.getFrames().isEmpty()) {
                    continue;
                }
                double millis = event.getDuration("samplingPeriod").toNanos() / 1e6;
                sampledMillis += millis;
                List<RecordedFrame> frames = stack.getFrames();
                self.merge(layer(frames.get(0).getMethod().getType().getName()), millis, Double::sum);
                methods.merge(method(frames.get(0)), millis, Double::sum);
                Set<String> seen = new HashSet<>();
                for (RecordedFrame frame : frames) {
                    seen.add(layer(frame.getMethod().getType().getName()));
                }
                seen.forEach(l -> inclusive.merge(l, millis, Double::sum));
            }
        }

        /** A key's sampled CPU milliseconds per connection cycle. */
        double perCycle(Map<String, Double> millis, String key) {
            return millis.getOrDefault(key, 0.0) / cycles;
        }
    }
}
