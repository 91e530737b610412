package io.quarkiverse.cable.bench.loadgen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The run file: one scenario against one server. Durations are milliseconds; rates are per second of
 * {@code durationSeconds} (fan-out: of the delivery window); {@code storm} and {@code fanout} figures are present only
 * for those scenarios.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record RunResult(
        String backend,
        String scenario,
        int users,
        int virtualUsers,
        String url,
        RunOptions.Parameters parameters,
        String startedAt,
        String endedAt,
        double durationSeconds,
        long connectionsAttempted,
        long connectionFailures,
        long subscriptionFailures,
        long receiveFailures,
        long invalidMessages,
        long messagesSent,
        long messagesReceived,
        long roundTripsOk,
        long roundTripsFailed,
        long iterationsCompleted,
        long iterationsFailed,
        long iterationsInterrupted,
        double iterationsPerSecond,
        int unfinishedVirtualUsers, // had not even reacted to the interruption when the run gave up on them
        double messagesPerSecond, // round trips per second; for fan-out, deliveries per second
        LatencySummary rtt,
        LatencySummary connect,
        LatencySummary subscribe,
        Double totalTimeMs, // storm only: from the first connection attempt to the last virtual user done
        Fanout fanout,
        Heap heap, // fan-out with --heap-url only
        List<String> failureExamples) { // the first distinct reasons

    /**
     * The server's heap after full collections: before the subscribers connected, once {@code heldConnections} of
     * them were subscribed (before the publisher started), and after the run; {@code bytesPerConnection} is
     * (held - before) / heldConnections. {@code problem} says why a reading is missing.
     */
    record Heap(Long beforeBytes, Long heldBytes, Long afterBytes, long heldConnections, Double bytesPerConnection,
            String problem) {
    }

    record Fanout(
            int rate,
            long published,
            long expectedDeliveries,
            long deliveriesReceived,
            long gaps,
            long duplicates,
            long outOfOrder,
            long subscribersCompleted,
            LatencySummary latency) {
    }

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * Everything counted as failed: connections, subscriptions, round trips (timeouts included), and for fan-out the
     * invalid messages and the subscribers that never saw the completion marker.
     */
    long failures() {
        long failures = connectionFailures + subscriptionFailures + roundTripsFailed;
        if (fanout != null) {
            failures += invalidMessages + (users - fanout.subscribersCompleted());
        }
        return failures;
    }

    /** What a clean run must not have: each non-zero failure count, named. Empty for a clean run. */
    List<String> problems() {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("connection failures", connectionFailures);
        counts.put("subscription failures", subscriptionFailures);
        counts.put("failed round trips", roundTripsFailed);
        counts.put("invalid messages", invalidMessages);
        counts.put("interrupted iterations", (long) iterationsInterrupted + unfinishedVirtualUsers);
        if (fanout != null) {
            counts.put("fan-out gaps", fanout.gaps());
            counts.put("fan-out duplicates", fanout.duplicates());
            counts.put("fan-out deliveries out of order", fanout.outOfOrder());
            counts.put("fan-out subscribers that never completed", users - fanout.subscribersCompleted());
        }
        if (heap != null && heap.bytesPerConnection() == null) {
            counts.put("run without its heap per connection: " + heap.problem(), 1L);
        }
        return counts.entrySet().stream().filter(count -> count.getValue() != 0)
                .map(count -> count.getValue() + " " + count.getKey()).toList();
    }

    void write(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        JSON.writeValue(file.toFile(), this);
    }

    static RunResult read(Path file) throws IOException {
        return JSON.readValue(file.toFile(), RunResult.class);
    }

    /** The paragraph printed after a run. */
    String describe() {
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "%s %s with %d users (%d virtual users) against %s: %.1f s, %d connections (%d failed), "
                        + "%d subscription failures, ",
                backend, scenario, users, virtualUsers, url, durationSeconds, connectionsAttempted, connectionFailures,
                subscriptionFailures));
        if (fanout == null) {
            text.append(String.format(Locale.ROOT,
                    "%d pings sent, %d round trips ok, %d failed (%d receive timeouts); RTT p50 %.1f ms, p95 %.1f ms, "
                            + "p99 %.1f ms, max %.1f ms; %.1f round trips/s; %d iterations completed (%.2f/s), "
                            + "%d failed",
                    messagesSent, roundTripsOk, roundTripsFailed, receiveFailures, rtt.p50(), rtt.p95(), rtt.p99(),
                    rtt.max(), messagesPerSecond, iterationsCompleted, iterationsPerSecond, iterationsFailed));
        } else {
            text.append(String.format(Locale.ROOT,
                    "%d messages published at %d/s, %d of %d deliveries received, %d gaps, %d duplicates, "
                            + "%d out of order, %d invalid, %d of %d subscribers completed; "
                            + "delivery latency p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms; %.1f deliveries/s",
                    fanout.published(), fanout.rate(), fanout.deliveriesReceived(), fanout.expectedDeliveries(),
                    fanout.gaps(), fanout.duplicates(), fanout.outOfOrder(), invalidMessages,
                    fanout.subscribersCompleted(), users, fanout.latency().p50(), fanout.latency().p95(),
                    fanout.latency().p99(), fanout.latency().max(), messagesPerSecond));
        }
        if (totalTimeMs != null) {
            text.append(String.format(Locale.ROOT, "; the herd took %.0f ms", totalTimeMs));
        }
        if (heap != null) {
            text.append(heap.bytesPerConnection() == null ? "; server heap not measured: " + heap.problem()
                    : String.format(Locale.ROOT, "; server heap %.1f MiB before, %.1f MiB with %d connections held "
                            + "(%.0f bytes each), %.1f MiB after", heap.beforeBytes() / 1048576.0,
                            heap.heldBytes() / 1048576.0, heap.heldConnections(), heap.bytesPerConnection(),
                            heap.afterBytes() == null ? Double.NaN : heap.afterBytes() / 1048576.0));
        }
        text.append(String.format(Locale.ROOT, "; connect p50 %.1f / p95 %.1f ms, subscribe p50 %.1f / p95 %.1f ms.",
                connect.p50(), connect.p95(), subscribe.p50(), subscribe.p95()));
        if (!failureExamples.isEmpty()) {
            text.append(" First failures: ").append(String.join("; ", failureExamples)).append('.');
        }
        if (iterationsInterrupted > 0 || unfinishedVirtualUsers > 0) {
            text.append(String.format(Locale.ROOT, " %d iterations were still running at the deadline "
                    + "(duration + graceful stop) and were interrupted%s.",
                    iterationsInterrupted,
                    unfinishedVirtualUsers > 0 ? ", " + unfinishedVirtualUsers + " virtual users never stopped" : ""));
        }
        return text.toString();
    }
}
