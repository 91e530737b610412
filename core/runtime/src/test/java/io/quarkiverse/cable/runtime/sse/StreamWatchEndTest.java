package io.quarkiverse.cable.runtime.sse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.ws.rs.sse.OutboundSseEvent;

import org.junit.jupiter.api.Test;

/**
 * A stream whose time is up (its credentials, {@code sse.max-stream-duration}) is ended once, and stays watched until
 * its last events are written: a client that takes neither them nor the end stalls like any other and is reset, rather
 * than holding its connection until TCP gives up. The watch's own timer runs; latches, no sleeps.
 */
class StreamWatchEndTest {

    @Test
    void anEndTheClientDoesNotTakeStallsTheStream() throws Exception {
        long stallNanos = TimeUnit.MILLISECONDS.toNanos(300);
        SseOutbox outbox = new SseOutbox(new SseSettings(1 << 20, stallNanos, 0, 0), new SseOutbox.Lifecycle() {
            @Override
            public void started(SseOutbox self) {
            }

            @Override
            public void cancelled() {
            }
        });
        // A client that reads nothing: it never asks for an event.
        outbox.subscribe(new Flow.Subscriber<OutboundSseEvent>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
            }

            @Override
            public void onNext(OutboundSseEvent item) {
            }

            @Override
            public void onError(Throwable throwable) {
            }

            @Override
            public void onComplete() {
            }
        });
        CountDownLatch ended = new CountDownLatch(1);
        CountDownLatch stalled = new CountDownLatch(1);
        AtomicBoolean queued = new AtomicBoolean();
        StreamWatch.watch(outbox, stalled::countDown, System.nanoTime(), () -> {
            // The last event before the end, then what a closed subscription does: complete once what waits is
            // written. Queued here, so the stall clock starts after the end, whatever the timer's pace.
            queued.set(outbox.offer(new TextEvent(null, "e:1", "the last one")));
            outbox.complete();
            ended.countDown();
        });

        assertThat(ended.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(queued).isTrue();
        assertThat(outbox.isDone()).as("the end waits behind the event nobody takes").isFalse();
        assertThat(stalled.await(60, TimeUnit.SECONDS)).as("stalled after its end").isTrue();
        assertThat(ended.getCount()).isZero();
    }
}
