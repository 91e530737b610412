package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableException.HistoryUnavailable.Reason;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The memory adapter keeps positions and a bounded history of its own (quarkus.cable.history.memory-size messages
 * per channel, one epoch per JVM): recovery is exact within it, refused beyond it, and a concurrent broadcaster
 * never causes a gap or duplicate at the seam.
 */
class MemoryAdapterRecoveryTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.datasource.db-kind", "h2")
            .overrideConfigKey("quarkus.datasource.active", "false")
            .overrideConfigKey("quarkus.cable.datasource", "none-here")
            .overrideConfigKey("quarkus.cable.history.memory-size", "150")
            .overrideConfigKey("quarkus.devservices.enabled", "false");

    @Inject
    Cable cable;

    @Test
    void recoversExactlyWithinTheKeptHistoryAndRefusesBeyondIt() throws Exception {
        assertThat(cable.adapter()).isEqualTo("memory");
        List<CableMessage> all = new CopyOnWriteArrayList<>();
        try (Subscription reference = cable.subscribe("mem-room", all::add)) {
            reference.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            for (int i = 1; i <= 30; i++) {
                cable.broadcast("mem-room", "m" + i);
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> all.size() == 30);
            assertThat(all).extracting(CableMessage::position).containsExactlyElementsOf(
                    java.util.stream.LongStream.rangeClosed(1, 30).boxed().toList());
            String epoch = all.get(0).epoch();
            assertThat(all).extracting(CableMessage::epoch).containsOnly(epoch);

            // All 30 kept. From 15 on, with a broadcaster running during the recovery.
            List<CableMessage> recovered = new CopyOnWriteArrayList<>();
            Thread broadcaster = Thread.ofVirtual().start(() -> {
                for (int i = 31; i <= 130; i++) {
                    cable.broadcast("mem-room", "m" + i);
                }
            });
            try (Subscription subscription = cable.subscribe("mem-room", new StreamPosition(epoch, 15),
                    recovered::add)) {
                subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
                broadcaster.join(60_000);
                await().atMost(Duration.ofSeconds(60)).until(() -> recovered.size() == 115);
                assertThat(recovered).extracting(CableMessage::text).containsExactlyElementsOf(
                        java.util.stream.IntStream.rangeClosed(16, 130).mapToObj(i -> "m" + i).toList());
            }
        }
        // 100 more: only the newest 150 are kept (81..230), so position 50 is gone; another epoch is another JVM's.
        for (int i = 131; i <= 230; i++) {
            cable.broadcast("mem-room", "m" + i);
        }
        String epoch = epochOf();
        refused(new StreamPosition(epoch, 50), Reason.TRIMMED);
        refused(new StreamPosition(epoch, 0), Reason.TRIMMED);
        refused(new StreamPosition("other-jvm", 229), Reason.EPOCH_CHANGED);
        refused(new StreamPosition(epoch, 231), Reason.OFFSET_BEYOND_NEWEST);
        refused(new StreamPosition(epoch, 1), Reason.UNKNOWN_STREAM, "mem-never-used");
        // The oldest kept position is still served.
        List<CableMessage> recovered = new CopyOnWriteArrayList<>();
        try (Subscription subscription = cable.subscribe("mem-room", new StreamPosition(epoch, 80), recovered::add)) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(60)).until(() -> recovered.size() == 150);
            assertThat(recovered.get(0).text()).isEqualTo("m81");
            assertThat(recovered.get(149).text()).isEqualTo("m230");
        }
    }

    private String epochOf() throws Exception {
        // A position-less subscriber learns the epoch from the next message.
        List<CableMessage> one = new CopyOnWriteArrayList<>();
        try (Subscription subscription = cable.subscribe("mem-epoch", one::add)) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.broadcast("mem-epoch", "x");
            await().atMost(Duration.ofSeconds(60)).until(() -> one.size() == 1);
        }
        return one.get(0).epoch();
    }

    private void refused(StreamPosition after, Reason reason) {
        refused(after, reason, "mem-room");
    }

    private void refused(StreamPosition after, Reason reason, String channel) {
        List<CableMessage> received = new CopyOnWriteArrayList<>();
        Subscription subscription = cable.subscribe(channel, after, received::add);
        assertThatThrownBy(() -> subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOfSatisfying(CableException.HistoryUnavailable.class,
                        e -> assertThat(e.reason()).isEqualTo(reason));
        assertThat(received).isEmpty();
    }
}
