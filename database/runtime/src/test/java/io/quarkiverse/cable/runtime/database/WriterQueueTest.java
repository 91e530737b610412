package io.quarkiverse.cable.runtime.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.spi.OutgoingMessage;

class WriterQueueTest {

    @Test
    void batchesTakeEveryWaitingChannelInTurnAndKeepEachChannelsOrder() throws Exception {
        WriterQueue queue = new WriterQueue(100, 100);
        for (int i = 1; i <= 5; i++) {
            offer(queue, "a", "a" + i);
        }
        offer(queue, "b", "b1");
        offer(queue, "c", "c1");
        offer(queue, "b", "b2");

        List<OutgoingMessage> first = new ArrayList<>();
        assertThat(queue.take(first, 4, 0, TimeUnit.MILLISECONDS)).isEqualTo(4);
        assertThat(texts(first)).containsExactly("a1", "b1", "c1", "a2");
        List<OutgoingMessage> second = new ArrayList<>();
        assertThat(queue.take(second, 100, 0, TimeUnit.MILLISECONDS)).isEqualTo(4);
        // The turn goes on where the last batch stopped: b's second before a's third.
        assertThat(texts(second)).containsExactly("b2", "a3", "a4", "a5");
        assertThat(queue.isEmpty()).isTrue();
    }

    /**
     * The case the queue exists for: a channel with its whole share waiting ahead of another channel's broadcast.
     * The quiet broadcast leaves in the first batch; in a single FIFO it waited for the whole flood (three batches).
     */
    @Test
    void aQuietChannelLeavesInTheNextBatchBehindAFlood() throws Exception {
        WriterQueue queue = new WriterQueue(10_000, 2_500);
        for (int i = 0; i < 2_500; i++) {
            assertThat(offer(queue, "flood", "f" + i)).isEqualTo(WriterQueue.Offer.ACCEPTED);
        }
        offer(queue, "quiet", "q");
        List<OutgoingMessage> batch = new ArrayList<>();
        queue.take(batch, 1_000, 0, TimeUnit.MILLISECONDS);
        assertThat(texts(batch)).hasSize(1_000).contains("q").startsWith("f0", "q", "f1");
        List<String> flood = new ArrayList<>(texts(batch));
        flood.remove("q");
        while (!queue.isEmpty()) {
            List<OutgoingMessage> more = new ArrayList<>();
            queue.take(more, 1_000, 0, TimeUnit.MILLISECONDS);
            flood.addAll(texts(more));
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 2_500; i++) {
            expected.add("f" + i);
        }
        assertThat(flood).containsExactlyElementsOf(expected);
    }

    @Test
    void aChannelIsHeldToItsShareAndTheQueueToItsCapacity() {
        WriterQueue queue = new WriterQueue(5, 2);
        assertThat(offer(queue, "a", "a1")).isEqualTo(WriterQueue.Offer.ACCEPTED);
        assertThat(offer(queue, "a", "a2")).isEqualTo(WriterQueue.Offer.ACCEPTED);
        assertThat(offer(queue, "a", "a3")).isEqualTo(WriterQueue.Offer.CHANNEL_FULL);
        assertThat(offer(queue, "b", "b1")).isEqualTo(WriterQueue.Offer.ACCEPTED);
        assertThat(offer(queue, "b", "b2")).isEqualTo(WriterQueue.Offer.ACCEPTED);
        assertThat(offer(queue, "c", "c1")).isEqualTo(WriterQueue.Offer.ACCEPTED);
        assertThat(offer(queue, "d", "d1")).isEqualTo(WriterQueue.Offer.FULL);
        assertThat(queue.size()).isEqualTo(5);

        List<OutgoingMessage> left = new ArrayList<>();
        queue.drainAll(left);
        assertThat(texts(left)).containsExactly("a1", "b1", "c1", "a2", "b2");
        // Taken, a channel's share is free again.
        assertThat(offer(queue, "a", "a4")).isEqualTo(WriterQueue.Offer.ACCEPTED);
    }

    @Test
    void theShareAtTheCapacityIsNoShare() {
        WriterQueue queue = new WriterQueue(3, 3);
        assertThat(queue.sharesChannels()).isFalse();
        for (int i = 0; i < 3; i++) {
            assertThat(offer(queue, "a", "a" + i)).isEqualTo(WriterQueue.Offer.ACCEPTED);
        }
        assertThat(offer(queue, "b", "b")).isEqualTo(WriterQueue.Offer.FULL);
    }

    @Test
    void takeWaitsForTheFirstBroadcastAndNoLonger() throws Exception {
        WriterQueue queue = new WriterQueue(10, 10);
        List<OutgoingMessage> batch = new ArrayList<>();
        assertThat(queue.take(batch, 10, 1, TimeUnit.MILLISECONDS)).isZero();

        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<List<String>> taken = new CompletableFuture<>();
        Thread writer = Thread.ofPlatform().start(() -> {
            try {
                List<OutgoingMessage> into = new ArrayList<>();
                waiting.countDown();
                queue.take(into, 10, 60, TimeUnit.SECONDS);
                taken.complete(texts(into));
            } catch (Throwable e) {
                taken.completeExceptionally(e);
            }
        });
        waiting.await(60, TimeUnit.SECONDS);
        offer(queue, "a", "a1");
        assertThat(taken.get(60, TimeUnit.SECONDS)).containsExactly("a1");
        writer.join(60_000);
    }

    private static WriterQueue.Offer offer(WriterQueue queue, String channel, String text) {
        return queue.offer(new OutgoingMessage(channel, channel.hashCode(), text.getBytes(StandardCharsets.UTF_8), false,
                System.nanoTime(), new CompletableFuture<>()));
    }

    private static List<String> texts(List<OutgoingMessage> messages) {
        return messages.stream().map(m -> new String(m.payload(), StandardCharsets.UTF_8)).toList();
    }
}
