package io.quarkiverse.cable.runtime.actioncable;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.runtime.core.CableStats;

/** A connection's commands: bounded while they wait, in count and bytes, and in rate. */
class CommandAdmissionTest {

    @Test
    void queuedCommandsAreBoundedInCountAndBytes() {
        CommandAdmission admission = new CommandAdmission(new CommandAdmission.Limits(3, 1000, 1000, 1000));
        assertThat(admission.admit(400)).isNull();
        assertThat(admission.admit(400)).isNull();
        assertThat(admission.admit(400)).isEqualTo(CableStats.Refusal.COMMAND_QUEUE); // 1,200 bytes
        assertThat(admission.admit(100)).isNull();
        assertThat(admission.admit(1)).isEqualTo(CableStats.Refusal.COMMAND_QUEUE); // four commands
        admission.done(400);
        assertThat(admission.admit(1)).isNull();
    }

    @Test
    void commandsBeyondTheBurstAreRefusedByRate() {
        CommandAdmission admission = new CommandAdmission(new CommandAdmission.Limits(10_000, 1 << 20, 1, 50));
        for (int i = 0; i < 50; i++) {
            assertThat(admission.admit(10)).isNull();
            admission.done(10);
        }
        assertThat(admission.admit(10)).isEqualTo(CableStats.Refusal.COMMAND_RATE);
    }
}
