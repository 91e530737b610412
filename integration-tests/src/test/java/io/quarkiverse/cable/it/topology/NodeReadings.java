package io.quarkiverse.cable.it.topology;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
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

    /** /q/health/ready without blanks, for {@code contains} checks on its JSON. */
    static String health(CableNode node) throws Exception {
        return get(node, "q/health/ready").replace(" ", "").replace("\n", "");
    }

    private static String get(CableNode node, String path) throws Exception {
        return CableNode.HTTP.send(HttpRequest.newBuilder(node.base().resolve(path)).timeout(Duration.ofSeconds(30))
                .GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
