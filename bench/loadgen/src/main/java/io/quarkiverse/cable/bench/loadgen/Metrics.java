package io.quarkiverse.cable.bench.loadgen;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The k6 script's counters and trends (names in the comments), updated from every event loop, plus the iteration
 * outcomes k6 reports on its own. Times are {@link System#nanoTime()} readings.
 */
final class Metrics {

    final LongAdder connectionsAttempted = new LongAdder();
    final LongAdder connectionFailures = new LongAdder(); // cable_connection_failures
    final LongAdder subscriptionFailures = new LongAdder(); // cable_subscription_failures
    final LongAdder receiveFailures = new LongAdder(); // cable_receive_failures
    final LongAdder invalidMessages = new LongAdder(); // cable_invalid_messages
    final LongAdder messagesSent = new LongAdder(); // cable_messages_sent
    final LongAdder messagesReceived = new LongAdder(); // cable_messages_received
    final LongAdder roundTripsOk = new LongAdder(); // cable_round_trip_success, true
    final LongAdder roundTripsFailed = new LongAdder(); // cable_round_trip_success, false

    final LongAdder iterationsCompleted = new LongAdder();
    final LongAdder iterationsFailed = new LongAdder(); // ended by k6's fail(): a failed check
    final LongAdder iterationsInterrupted = new LongAdder(); // still running at the deadline: duration + graceful stop

    final LatencySamples connectDuration = new LatencySamples(); // cable_connection_duration
    final LatencySamples subscribeDuration = new LatencySamples(); // cable_subscription_duration
    // cable_action_rtt; the script's cable_receive_duration starts a statement later, so it is the same figure here
    final LatencySamples actionRtt = new LatencySamples();

    final LongAdder fanoutPublished = new LongAdder(); // cable_fanout_messages_published
    final LongAdder fanoutDeliveries = new LongAdder(); // cable_fanout_deliveries_received
    final LongAdder fanoutGaps = new LongAdder(); // cable_fanout_sequence_gaps
    final LongAdder fanoutDuplicates = new LongAdder(); // cable_fanout_duplicate_deliveries
    final LongAdder fanoutOutOfOrder = new LongAdder(); // cable_fanout_out_of_order_deliveries
    final LongAdder fanoutSubscribersCompleted = new LongAdder(); // cable_fanout_subscribers_completed
    final LongAdder fanoutSubscribed = new LongAdder(); // subscribers confirmed (not in k6): when all are held
    final LatencySamples fanoutLatency = new LatencySamples(); // cable_fanout_delivery_latency

    /** The first few distinct reasons things failed, so a run file says why and not only how often. */
    private static final int FAILURE_EXAMPLES = 10;
    private final Set<String> failureExamples = new LinkedHashSet<>();

    private final AtomicLong firstConnectNanos = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong firstPublishNanos = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastDeliveryNanos = new AtomicLong(Long.MIN_VALUE);

    void connectStarted(long nanos) {
        connectionsAttempted.increment();
        firstConnectNanos.accumulateAndGet(nanos, Math::min);
    }

    void published(long nanos) {
        fanoutPublished.increment();
        firstPublishNanos.accumulateAndGet(nanos, Math::min);
    }

    void delivered(long nanos, double latencyMillis) {
        fanoutDeliveries.increment();
        fanoutLatency.add(latencyMillis);
        lastDeliveryNanos.accumulateAndGet(nanos, Math::max);
    }

    void failed(Throwable cause) {
        synchronized (failureExamples) {
            if (failureExamples.size() < FAILURE_EXAMPLES) {
                failureExamples.add(cause.getMessage());
            }
        }
    }

    List<String> failureExamples() {
        synchronized (failureExamples) {
            return List.copyOf(failureExamples);
        }
    }

    /** The first connection attempt, or {@link Long#MAX_VALUE} if there was none. */
    long firstConnectNanos() {
        return firstConnectNanos.get();
    }

    /** From the first publish to the last delivery: the window in which fan-out deliveries happened, or 0. */
    long deliveryWindowNanos() {
        long first = firstPublishNanos.get();
        long last = lastDeliveryNanos.get();
        return first == Long.MAX_VALUE || last == Long.MIN_VALUE ? 0 : Math.max(0, last - first);
    }
}
