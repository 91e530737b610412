package io.quarkiverse.cable.bench.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.vertx.core.json.JsonObject;

class FanoutAccountTest {

    private final Metrics metrics = new Metrics();
    private final EpochClock clock = new EpochClock();
    private final FanoutAccount account = new FanoutAccount(metrics, clock);

    @Test
    void countsGapsDuplicatesAndOutOfOrderLikeTheK6Subscriber() {
        // 0 1 3 2 2 5, then the marker for 7 messages: 4 and 6 never came.
        for (int sequence : new int[] { 0, 1, 3, 2, 2, 5 }) {
            assertThat(account.accept(delivery(sequence))).isFalse();
        }
        assertThat(account.accept(new JsonObject().put("complete", true).put("expected_messages", 7))).isTrue();

        assertThat(metrics.fanoutDeliveries.sum()).isEqualTo(5); // the duplicate is not a delivery
        assertThat(metrics.fanoutDuplicates.sum()).isEqualTo(1);
        assertThat(metrics.fanoutOutOfOrder.sum()).isEqualTo(1); // 2 after 3; the second 2 is only a duplicate
        assertThat(metrics.fanoutGaps.sum()).isEqualTo(2);
        assertThat(metrics.fanoutSubscribersCompleted.sum()).isEqualTo(1);
        assertThat(metrics.invalidMessages.sum()).isZero();
        assertThat(metrics.fanoutLatency.summary().count()).isEqualTo(5);
    }

    @Test
    void everyMessageBelowTheHighestSeenIsOutOfOrder() {
        for (int sequence : new int[] { 5, 1, 2, 3, 6, 4 }) {
            account.accept(delivery(sequence));
        }

        assertThat(metrics.fanoutOutOfOrder.sum()).isEqualTo(4);
        assertThat(metrics.fanoutDeliveries.sum()).isEqualTo(6);
    }

    @Test
    void readsNumbersAsJavaScriptsNumberDoes() {
        account.accept(new JsonObject().put("sequence", "3").put("sent_at", clock.nowMillis())); // a numeric string
        account.accept(new JsonObject().put("sequence", 1.5).put("sent_at", clock.nowMillis())); // not an integer
        account.accept(new JsonObject().put("sequence", -1).put("sent_at", clock.nowMillis())); // negative
        account.accept(new JsonObject().put("sequence", 4)); // no sent_at: NaN
        account.accept(new JsonObject().put("sequence", 5).put("sent_at", "soon")); // not a number
        account.accept("just text"); // not an object

        assertThat(metrics.fanoutDeliveries.sum()).isEqualTo(1);
        assertThat(metrics.invalidMessages.sum()).isEqualTo(5);
    }

    @Test
    void aMarkerWithoutAUsableCountFindsNoGaps() {
        account.accept(delivery(3));

        assertThat(account.accept(new JsonObject().put("complete", 1))).isTrue(); // truthy, expected_messages NaN

        assertThat(metrics.fanoutGaps.sum()).isZero();
        assertThat(metrics.fanoutSubscribersCompleted.sum()).isEqualTo(1);
    }

    @Test
    void aFalsyCompleteIsAnOrdinaryMessage() {
        assertThat(account.accept(delivery(0).put("complete", false))).isFalse();
        assertThat(account.accept(new JsonObject().put("complete", "").put("expected_messages", 1))).isFalse();

        assertThat(metrics.fanoutDeliveries.sum()).isEqualTo(1);
        assertThat(metrics.invalidMessages.sum()).isEqualTo(1); // the second has no sequence
    }

    @Test
    void latencyIsReceiveTimeMinusSentAt() {
        account.accept(new JsonObject().put("sequence", 0).put("sent_at", Math.round(clock.nowMillis()) - 250));

        assertThat(metrics.fanoutLatency.summary().p50()).isBetween(249.0, 300.0);
    }

    private JsonObject delivery(int sequence) {
        return new JsonObject().put("sequence", sequence).put("sent_at", Math.round(clock.nowMillis()))
                .put("message", "body-" + sequence);
    }
}
