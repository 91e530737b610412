package io.quarkiverse.cable.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.CableMessage;

/** The node's budget of client replays in flight: taken, refused when full, given back as written or when closed. */
class ReplayBudgetTest {

    /** A message whose cost is {@code payload} bytes plus the overhead. */
    private static CableMessage message(long id, int payload) {
        return new CableMessage(id, "room", new byte[payload], true, id, "e");
    }

    private static List<CableMessage> replay(int messages, int payload) {
        List<CableMessage> replay = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
            replay.add(message(i + 1, payload));
        }
        return replay;
    }

    private static long cost(int messages, int payload) {
        return (long) messages * (payload + ReplayBudget.MESSAGE_OVERHEAD);
    }

    @Test
    void aReplayOverTheBytesLeftIsRefusedUntilAnotherIsWritten() {
        ReplayBudget budget = new ReplayBudget(cost(10, 100), 100);
        ReplayBudget.Lease first = budget.tryStart();
        assertThat(first.admit(replay(6, 100))).isTrue();
        assertThat(budget.bytesInFlight()).isEqualTo(cost(6, 100));

        ReplayBudget.Lease second = budget.tryStart();
        assertThat(second.admit(replay(5, 100))).as("6 + 5 messages over a budget of 10").isFalse();
        assertThat(budget.bytesInFlight()).as("a refused replay takes nothing").isEqualTo(cost(6, 100));
        second.close();

        // Two of the first replay's messages reach the socket: their bytes come back, and 5 more fit.
        List<CableMessage> written = replay(2, 100);
        written.forEach(first::written);
        assertThat(budget.bytesInFlight()).isEqualTo(cost(4, 100));
        ReplayBudget.Lease third = budget.tryStart();
        assertThat(third.admit(replay(5, 100))).isTrue();
        assertThat(budget.full()).isFalse();

        first.close();
        third.close();
        assertThat(budget.bytesInFlight()).isZero();
        assertThat(budget.replaysInFlight()).isZero();
    }

    @Test
    void aFullBudgetRefusesBeforeTheHistoryIsRead() {
        ReplayBudget budget = new ReplayBudget(cost(2, 100), 100);
        ReplayBudget.Lease lease = budget.tryStart();
        assertThat(lease.admit(replay(2, 100))).isTrue();
        assertThat(budget.full()).isTrue();
        assertThat(budget.tryStart()).as("no room: refused without a place").isNull();
        assertThat(budget.replaysInFlight()).isEqualTo(1);
        lease.close();
        assertThat(budget.full()).isFalse();
        assertThat(budget.tryStart()).isNotNull();
    }

    @Test
    void theReplaysInFlightAreCappedWhateverTheirSize() {
        ReplayBudget budget = new ReplayBudget(1 << 20, 2);
        ReplayBudget.Lease one = budget.tryStart();
        ReplayBudget.Lease two = budget.tryStart();
        assertThat(budget.tryStart()).isNull();
        assertThat(budget.full()).isTrue();
        one.close();
        one.close(); // idempotent: the place is given back once
        assertThat(budget.replaysInFlight()).isEqualTo(1);
        assertThat(budget.tryStart()).isNotNull();
        assertThat(budget.tryStart()).isNull();
        two.close();
    }

    @Test
    void closingMidReplayGivesBackWhatWasNotWritten() {
        ReplayBudget budget = new ReplayBudget(cost(10, 100), 100);
        ReplayBudget.Lease lease = budget.tryStart();
        List<CableMessage> messages = replay(8, 100);
        assertThat(lease.admit(messages)).isTrue();
        lease.written(messages.get(0));
        lease.close(); // the stream failed or was cancelled after one message
        assertThat(budget.bytesInFlight()).isZero();
        assertThat(budget.replaysInFlight()).isZero();
        // Late reports from the writer after the close give back nothing more.
        lease.written(messages.get(1));
        assertThat(budget.bytesInFlight()).isZero();
        assertThat(lease.admit(messages)).as("a closed lease takes nothing").isFalse();
    }

    @Test
    void aReplayLargerThanTheWholeBudgetIsServedAloneRatherThanNever() {
        ReplayBudget budget = new ReplayBudget(cost(4, 100), 100);
        ReplayBudget.Lease large = budget.tryStart();
        assertThat(large.admit(replay(10, 100))).isTrue();
        assertThat(budget.tryStart()).isNull();
        large.close();

        ReplayBudget.Lease small = budget.tryStart();
        assertThat(small.admit(replay(1, 100))).isTrue();
        ReplayBudget.Lease again = budget.tryStart();
        assertThat(again.admit(replay(10, 100))).as("not beside another").isFalse();
        again.close();
        small.close();
    }

    @Test
    void oneLeaseForAGroupGivesBackEveryStreamsShare() {
        ReplayBudget budget = new ReplayBudget(cost(100, 100), 100);
        ReplayBudget.Lease a = budget.tryStart();
        ReplayBudget.Lease b = budget.tryStart();
        List<CableMessage> first = replay(3, 100);
        List<CableMessage> second = replay(2, 100);
        assertThat(a.admit(first)).isTrue();
        assertThat(b.admit(second)).isTrue();
        ReplayLease group = ReplayLease.all(List.of(a, b));
        second.forEach(group::written);
        first.forEach(group::written);
        assertThat(budget.bytesInFlight()).isZero();
        group.close();
        assertThat(budget.replaysInFlight()).isZero();
    }
}
