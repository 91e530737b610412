package io.quarkiverse.cable.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.CableException.HistoryUnavailable;
import io.quarkiverse.cable.CableException.HistoryUnavailable.Reason;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.spi.HistoryRequest;

/** A connection's share of history steps in flight. */
class StepQuotaTest {

    private static final HistoryRequest FROM_ZERO = new HistoryRequest.After(new StreamPosition("e", 0));

    @Test
    void aConnectionAtItsLimitIsRefusedUntilOneOfItsStepsEnds() {
        ReplayQuota quota = new ReplayQuota(2, null);
        quota.acquire("room", FROM_ZERO);
        quota.acquire("room", FROM_ZERO);
        assertThatThrownBy(() -> quota.acquire("room", new HistoryRequest.After(new StreamPosition("e", 0))))
                .isInstanceOfSatisfying(HistoryUnavailable.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.CONNECTION_LIMIT));
        quota.release();
        quota.acquire("room", FROM_ZERO);
    }
}
