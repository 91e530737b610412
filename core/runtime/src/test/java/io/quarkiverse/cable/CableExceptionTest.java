package io.quarkiverse.cable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A {@code QueueFull} is a refusal under load: a flood makes one per refused broadcast (about 100,000 in the writer
 * flood of issue 45), so it fills in no stack trace, and its message alone says why and which setting bounds it.
 */
class CableExceptionTest {

    @Test
    void queueFullCarriesNoStackTraceAndSaysWhy() {
        List<CableException.QueueFull> refusals = List.of(new CableException.QueueFull(10_000),
                CableException.QueueFull.channelShare(2500), CableException.QueueFull.transactionLimit(10_000),
                CableException.QueueFull.presence(16, 10_000));
        List<String> settings = List.of("writer.queue-capacity", "writer.max-queued-per-channel",
                "writer.max-transaction-broadcasts", "presence.max-pending-per-id");
        for (int i = 0; i < refusals.size(); i++) {
            CableException.QueueFull refusal = refusals.get(i);
            assertThat(refusal.getStackTrace()).as(refusal.getMessage()).isEmpty();
            assertThat(refusal.getMessage()).contains(settings.get(i));
        }
        // Thrown again (a stage failing twice, a rethrow): still none.
        CableException.QueueFull full = new CableException.QueueFull(1);
        full.fillInStackTrace();
        assertThat(full.getStackTrace()).isEmpty();
    }
}
