package io.quarkiverse.cable.bench.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.vertx.core.json.JsonArray;

/** The reconnect storm's client flags every way a recovery can go wrong, and accepts the exact one. */
class RecoveringClientTest {

    private static final String ID = "{\"channel\":\"FanoutChannel\",\"stream\":\"s\"}";

    private final ViolationLog violations = new ViolationLog();
    private final RecoveringClient client = new RecoveringClient(null, "s", violations);

    @Test
    void exactRecoveryIsClean() {
        freshWithPosition(5);
        reconnect(8, frame("confirm_subscription"), broadcast(6), broadcast(7), broadcast(8), frame("confirm_history"));

        assertThat(client.sent.getJsonObject("history").encode())
                .isEqualTo("{\"streams\":{\"fanout:s\":{\"epoch\":\"e1\",\"offset\":5}}}");
        assertThat(client.replayed()).isEqualTo(3);
        assertThat(client.offset()).isEqualTo(8);
        assertThat(violations.count()).isZero();
    }

    @Test
    void gapDuplicateEarlyConfirmAndRejectAreViolations() {
        freshWithPosition(5);
        reconnect(8, frame("confirm_subscription"), broadcast(6), broadcast(6), broadcast(8), frame("confirm_history"));
        assertThat(violations.first()).anyMatch(v -> v.contains("duplicate")).anyMatch(v -> v.contains("gap"));

        long before = violations.count();
        reconnect(10, frame("confirm_subscription"), broadcast(9), frame("confirm_history"));
        assertThat(violations.count()).isEqualTo(before + 1); // confirm_history before offset 10

        before = violations.count();
        reconnect(12, frame("confirm_subscription"), frame("reject_history"));
        assertThat(violations.count()).isEqualTo(before + 1);
    }

    @Test
    void wrongEpochAndSequenceAreViolations() {
        freshWithPosition(5);
        reconnect(6, frame("confirm_subscription"),
                "{\"identifier\":" + quote(ID)
                        + ",\"message\":{\"sequence\":6},\"stream_id\":\"fanout:s\",\"epoch\":\"e2\",\"offset\":6}",
                frame("confirm_history"));
        assertThat(violations.first()).anyMatch(v -> v.contains("epoch changed"));

        long before = violations.count();
        reconnect(7, frame("confirm_subscription"),
                "{\"identifier\":" + quote(ID) + ",\"message\":{\"sequence\":99},\"stream_id\":\"fanout:s\","
                        + "\"epoch\":\"e2\",\"offset\":7}",
                frame("confirm_history"));
        assertThat(violations.count()).isEqualTo(before + 1);
    }

    /** A fresh client (no history asked) whose first broadcast, at {@code offset}, becomes its position. */
    private void freshWithPosition(long offset) {
        client.newConnection(0);
        client.onText("{\"type\":\"welcome\",\"sid\":\"abc\"}");
        assertThat(client.sent.containsKey("history")).isFalse();
        client.onText(frame("confirm_subscription"));
        client.onText(broadcast(offset));
        assertThat(violations.count()).isZero();
    }

    private void reconnect(long expected, String... frames) {
        client.newConnection(expected);
        client.onText("{\"type\":\"welcome\",\"sid\":\"def\"}");
        for (String frame : frames) {
            client.onText(frame);
        }
    }

    private static String frame(String type) {
        return "{\"identifier\":" + quote(ID) + ",\"type\":\"" + type + "\"}";
    }

    private static String broadcast(long offset) {
        return "{\"identifier\":" + quote(ID) + ",\"message\":{\"sequence\":" + offset
                + "},\"stream_id\":\"fanout:s\",\"epoch\":\"e1\",\"offset\":" + offset + "}";
    }

    private static String quote(String text) {
        return new JsonArray().add(text).encode().replaceAll("^\\[|\\]$", "");
    }
}
