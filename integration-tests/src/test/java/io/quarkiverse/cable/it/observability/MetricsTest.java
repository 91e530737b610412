package io.quarkiverse.cable.it.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.MetricsScrape;
import io.quarkus.test.junit.QuarkusTest;

/** The cable's Micrometer metrics in /q/metrics read exactly what the cable did. */
@QuarkusTest
public class MetricsTest {

    private static final int BROADCASTS = 25;
    private static final int SUBSCRIBERS = 3;

    @Inject
    Cable cable;

    @Test
    void countersMatchBroadcastsAndDeliveries() throws Exception {
        String channel = Channels.unique("metrics");
        MetricsScrape before = MetricsScrape.now();
        List<Collector> collectors = new ArrayList<>();
        List<Subscription> subscriptions = new ArrayList<>();
        try {
            for (int i = 0; i < SUBSCRIBERS; i++) {
                Collector collector = new Collector();
                Subscription subscription = cable.subscribe(channel, collector);
                subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
                collectors.add(collector);
                subscriptions.add(subscription);
            }
            MetricsScrape subscribed = MetricsScrape.now();
            assertThat(subscribed.count("cable_channels")).isEqualTo(before.count("cable_channels") + 1);
            assertThat(subscribed.count("cable_subscribers"))
                    .isEqualTo(before.count("cable_subscribers") + SUBSCRIBERS);

            List<CompletableFuture<Void>> commits = new ArrayList<>();
            for (int i = 0; i < BROADCASTS; i++) {
                commits.add(cable.broadcast(channel, "m" + i).toCompletableFuture());
            }
            CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            collectors.forEach(collector -> collector.awaitCount(BROADCASTS));

            MetricsScrape after = MetricsScrape.now();
            assertThat(delta(before, after, "cable_broadcasts_total")).isEqualTo(BROADCASTS);
            assertThat(delta(before, after, "cable_broadcasts_committed_total")).isEqualTo(BROADCASTS);
            assertThat(delta(before, after, "cable_deliveries_total")).isEqualTo((long) BROADCASTS * SUBSCRIBERS);
            // Each message is read once per node, whatever its number of subscribers.
            assertThat(delta(before, after, "cable_poll_lag_seconds_count")).isEqualTo(BROADCASTS);
            assertThat(delta(before, after, "cable_poll_rows_sum")).isEqualTo(BROADCASTS);
            assertThat(delta(before, after, "cable_writer_batch_size_sum")).isEqualTo(BROADCASTS);
            assertThat(delta(before, after, "cable_polls_total")).isPositive();
            assertThat(after.value("cable_poll_lag_seconds_max")).isGreaterThanOrEqualTo(0);
            assertThat(after.has("cable_poll_lag_seconds_bucket{le=\"+Inf\"}")).isTrue();
            assertThat(after.count("cable_writer_queue_depth")).isZero();
            assertThat(after.value("cable_writer_oldest_age_seconds")).isZero();
            assertThat(after.value("cable_poller_last_success_age_seconds")).isGreaterThanOrEqualTo(0);
            // Every committed message has been read: the poller is at the newest id (probed once a second).
            await().atMost(Collector.TIMEOUT)
                    .until(() -> MetricsScrape.now().value("cable_poller_cursor_lag") == 0.0);
        } finally {
            subscriptions.forEach(Subscription::close);
        }
        MetricsScrape closed = MetricsScrape.now();
        assertThat(closed.count("cable_channels")).isEqualTo(before.count("cable_channels"));
        assertThat(closed.count("cable_subscribers")).isEqualTo(before.count("cable_subscribers"));
    }

    @Test
    void errorsAreCountedByKind() {
        MetricsScrape before = MetricsScrape.now();
        CompletableFuture<Void> rejected = cable.broadcast("", "x").toCompletableFuture();
        assertThat(rejected).failsWithin(java.time.Duration.ofSeconds(10)).withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(CableException.InvalidMessage.class);
        MetricsScrape after = MetricsScrape.now();
        assertThat(delta(before, after, "cable_errors_total{kind=\"invalid\"}")).isEqualTo(1);
        assertThat(delta(before, after, "cable_errors_total{kind=\"queue_full\"}")).isZero();
        assertThat(delta(before, after, "cable_broadcasts_total")).isZero();
        assertThat(after.has("cable_slow_consumer_disconnects_total")).isTrue();
        assertThat(after.has("cable_trim_rows_total")).isTrue();
    }

    private static long delta(MetricsScrape before, MetricsScrape after, String name) {
        return after.count(name) - before.count(name);
    }
}
