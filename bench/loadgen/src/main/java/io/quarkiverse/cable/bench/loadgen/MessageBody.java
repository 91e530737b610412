package io.quarkiverse.cable.bench.loadgen;

/**
 * The text sent in each ping or fan-out message, built as the k6 script's {@code messageBody}: the prefix names the
 * run, workload, virtual user, iteration and message, so a pong can be matched to its ping; it is padded with
 * {@code x} to the payload size, or left longer when the prefix alone exceeds it.
 */
final class MessageBody {

    private MessageBody() {
    }

    static String of(String testId, String workload, int vu, int iteration, int index, int payloadBytes) {
        String prefix = testId + ":" + workload + ":vu-" + vu + ":iter-" + iteration + ":msg-" + index + ":";
        return prefix.length() >= payloadBytes ? prefix : prefix + "x".repeat(payloadBytes - prefix.length());
    }
}
