package io.quarkiverse.cable.it.topology;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.quarkiverse.cable.it.CableNode;

/** What a running node reports on its management endpoints: a metric series, its readiness data. */
final class NodeReadings {

    private static final Pattern SERIES = Pattern.compile("^(\\S+?(?:\\{[^}]*\\})?) (\\S+)$", Pattern.MULTILINE);

    private NodeReadings() {
    }

    /** One series of the node's /q/metrics (labels in Prometheus order); fails when it is missing. */
    static double metric(CableNode node, String series) throws Exception {
        Matcher matcher = SERIES.matcher(get(node, "q/metrics"));
        while (matcher.find()) {
            if (matcher.group(1).equals(series)) {
                return Double.parseDouble(matcher.group(2));
            }
        }
        throw new AssertionError("no series " + series + " on " + node.name);
    }

    /**
     * For a failure message: each node's cable series that tell why a client got nothing more (errors by kind, closed
     * connections, poll and wake-up failures, identity changes), its readiness and the tail of its log.
     */
    static String describe(List<CableNode> nodes) {
        StringBuilder out = new StringBuilder();
        for (CableNode node : nodes) {
            out.append("\n--- ").append(node.name).append(": ");
            try {
                get(node, "q/metrics").lines()
                        .filter(line -> line.startsWith("cable_") && !line.endsWith(" 0.0")
                                && (line.contains("error") || line.contains("disconnect") || line.contains("unresponsive")
                                        || line.contains("identity") || line.contains("lost") || line.contains("cursor")))
                        .forEach(line -> out.append("\n  ").append(line));
                out.append("\n  ready: ").append(health(node));
            } catch (Exception e) {
                out.append("(no readings: ").append(e).append(')');
            }
            out.append("\n  log tail:\n").append(node.logTail());
        }
        return out.toString();
    }

    /** /q/health/ready without blanks, for {@code contains} checks on its JSON. */
    static String health(CableNode node) throws Exception {
        return get(node, "q/health/ready").replace(" ", "").replace("\n", "");
    }

    private static String get(CableNode node, String path) throws Exception {
        return CableNode.HTTP.send(HttpRequest.newBuilder(node.base().resolve(path)).timeout(Duration.ofSeconds(30))
                .GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
