package io.quarkiverse.cable.runtime.sse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import jakarta.ws.rs.sse.OutboundSseEvent;

import org.junit.jupiter.api.Test;

/**
 * A quiet SSE stream gets a heartbeat after the heartbeat interval, and a heartbeat its client does not take stalls the
 * stream like any event: that is how a client that vanished on an idle channel is noticed at all (with nothing to
 * write, neither the stall rule nor TCP has anything to go on). Clock values are passed in, so nothing here waits.
 */
class SseOutboxHeartbeatTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final List<OutboundSseEvent> written = new ArrayList<>();
    private Flow.Subscription subscription;

    private SseOutbox subscribed(long heartbeatNanos) {
        SseOutbox outbox = new SseOutbox(new SseSettings(1 << 20, 5 * SECOND, heartbeatNanos, 0), new SseOutbox.Lifecycle() {
            @Override
            public void started(SseOutbox self) {
            }

            @Override
            public void cancelled() {
            }
        });
        outbox.subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                subscription = s;
            }

            @Override
            public void onNext(OutboundSseEvent item) {
                written.add(item);
            }

            @Override
            public void onError(Throwable throwable) {
            }

            @Override
            public void onComplete() {
            }
        });
        return outbox;
    }

    @Test
    void aQuietStreamWantsAHeartbeatOnlyAfterTheInterval() {
        SseOutbox outbox = subscribed(10 * SECOND);
        long now = System.nanoTime();
        assertThat(outbox.quiet(now)).isFalse();
        assertThat(outbox.quiet(now + 11 * SECOND)).isTrue();

        assertThat(outbox.offer(TextEvent.HEARTBEAT)).isTrue();
        // Waiting to be written: not quiet, so the watch does not pile heartbeats up.
        assertThat(outbox.quiet(now + 11 * SECOND)).isFalse();

        subscription.request(1);
        assertThat(written).containsExactly(TextEvent.HEARTBEAT);
        assertThat(TextEvent.HEARTBEAT.getComment()).isEmpty();
        assertThat(TextEvent.HEARTBEAT.getData()).isNull();
        long handedOver = System.nanoTime();
        assertThat(outbox.quiet(handedOver + SECOND)).isFalse();
        assertThat(outbox.quiet(handedOver + 11 * SECOND)).isTrue();
    }

    @Test
    void aHeartbeatTheClientDoesNotTakeStallsTheStream() {
        SseOutbox outbox = subscribed(10 * SECOND);
        long now = System.nanoTime();
        assertThat(outbox.stalled(now + 60 * SECOND)).as("nothing waits: not stalled").isFalse();
        outbox.offer(TextEvent.HEARTBEAT);
        long queued = System.nanoTime();
        assertThat(outbox.stalled(queued + 4 * SECOND)).isFalse();
        assertThat(outbox.stalled(queued + 6 * SECOND)).as("stall-timeout 5 s passed with the heartbeat waiting")
                .isTrue();
    }

    @Test
    void heartbeatsOffMeansNeverQuiet() {
        SseOutbox outbox = subscribed(0);
        assertThat(outbox.quiet(System.nanoTime() + 3600 * SECOND)).isFalse();
    }
}
