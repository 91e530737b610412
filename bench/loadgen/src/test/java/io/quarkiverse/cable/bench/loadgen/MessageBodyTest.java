package io.quarkiverse.cable.bench.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MessageBodyTest {

    @Test
    void padsThePrefixWithXToThePayloadSize() {
        String body = MessageBody.of("redis", "steady", 7, 2, 4, 64);

        assertThat(body).hasSize(64).startsWith("redis:steady:vu-7:iter-2:msg-4:");
        assertThat(body.substring("redis:steady:vu-7:iter-2:msg-4:".length())).matches("x+");
    }

    @Test
    void leavesAPrefixLongerThanThePayloadAsItIs() {
        assertThat(MessageBody.of("a-long-test-id", "fanout", 1000, 0, 899, 16))
                .isEqualTo("a-long-test-id:fanout:vu-1000:iter-0:msg-899:");
    }

    @Test
    void aPrefixOfExactlyThePayloadSizeGetsNoPadding() {
        String prefix = "t:churn:vu-1:iter-0:msg-0:";

        assertThat(MessageBody.of("t", "churn", 1, 0, 0, prefix.length())).isEqualTo(prefix);
    }
}
