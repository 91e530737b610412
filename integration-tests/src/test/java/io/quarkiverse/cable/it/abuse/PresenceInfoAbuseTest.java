package io.quarkiverse.cable.it.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;

/**
 * A presence {@code info} command of about 100 bytes asks for a snapshot of up to {@code presence.max-records}
 * members: here 1,000 members with about 900 bytes of info each, an answer near 1 MB. An attacker sending it at the
 * command rate (100 a second) used to get about 100 MB a second built and sent; now its answers are bounded by
 * {@code presence.info-bytes-per-second} (256 KiB by default, plus the one answer that overdraws it), the excess
 * answered with the presence error frame and counted as {@code presence_info_bytes}. A healthy client on the same room
 * keeps its p99 within three times its baseline (floored at 100 ms).
 */
@QuarkusTest
@DatabaseIndependent
public class PresenceInfoAbuseTest {

    private static final int MEMBERS = 1_000;
    private static final String INFO = "{\"bio\":\"" + "i".repeat(880) + "\"}";
    /** The default of quarkus.cable.presence.info-bytes-per-second. */
    private static final long BUDGET = 256 * 1024;
    /** The command rate's default: the attacker sends as fast as it is admitted. */
    private static final int COMMANDS_PER_SECOND = 100;
    /** The least the attack lasts, so the rate, not the budget's first second, is what is measured. */
    private static final long ATTACK_NANOS = TimeUnit.SECONDS.toNanos(4);

    @TestHTTPResource("/")
    URI base;

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Test
    void presenceInfoAnswersAreBoundedPerConnection() throws Exception {
        AbuseHarness harness = AbuseHarness.start(cable, base);
        InfoAttacker attackerOrNull = null;
        try {
            fillRoom(harness.channel());
            AbuseHarness.Baseline baseline = harness.baseline();

            InfoAttacker attacker = InfoAttacker.connect(base, harness.room());
            attackerOrNull = attacker;
            long answerBytes = attacker.oneAnswer();
            assertThat(answerBytes).as("one info answer lists every member").isGreaterThan(900L * MEMBERS);
            long refusedBefore = engine.stats().refusals(CableStats.Refusal.PRESENCE_INFO_BYTES);
            long infoBefore = attacker.infoBytes.get();
            long errorsBefore = attacker.errors.get();

            long start = System.nanoTime();
            CompletableFuture<Void> flood = attacker.flood();
            List<Double> underAttack = harness.rounds(AbuseHarness.ATTACK_ROUNDS);
            long remaining = ATTACK_NANOS - (System.nanoTime() - start);
            if (remaining > 0) {
                TimeUnit.NANOSECONDS.sleep(remaining);
            }
            attacker.stop.set(true);
            flood.get(60, TimeUnit.SECONDS);
            long sent = attacker.sent.get();
            // Every command answered (an info or the error frame), so every admitted answer is counted below.
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
                    .until(() -> attacker.answers() >= sent + 1 || attacker.closed.isDone());
            double seconds = (System.nanoTime() - start) / 1e9;
            long info = attacker.infoBytes.get() - infoBefore;
            long errors = attacker.errors.get() - errorsBefore;
            System.out.printf(java.util.Locale.ROOT,
                    "PresenceInfoAbuseTest: %d info commands in %.1f s, %d answers of %d bytes (%.0f bytes/s), %d"
                            + " refused%n",
                    sent, seconds, (attacker.infos.get() - 1), answerBytes, info / seconds, errors);
            long usedAfter = AbuseHarness.usedMemory();
            harness.assertHealthyReceivedEverything();
            assertThat(attacker.closed).as("the attacker is refused answers, not disconnected").isNotDone();

            assertThat(info).as("info bytes answered in %.1f s", seconds)
                    .isLessThanOrEqualTo((long) (BUDGET * (seconds + 1)) + answerBytes);
            assertThat(errors).as("the excess got the presence error frame").isPositive();
            assertThat(engine.stats().refusals(CableStats.Refusal.PRESENCE_INFO_BYTES) - refusedBefore)
                    .isEqualTo(errors);
            AbuseHarness.report("presence info at the command rate, 1,000 members of 900 B", baseline, underAttack,
                    usedAfter, 16L * 1024 * 1024);
        } finally {
            if (attackerOrNull != null) {
                attackerOrNull.socket.abort();
            }
            harness.close();
        }
    }

    /** {@link #MEMBERS} ids in the room's presence set, each with {@link #INFO}, as the server's own API joins them. */
    private void fillRoom(String channel) throws Exception {
        try (ExecutorService joiners = Executors.newFixedThreadPool(4)) {
            List<CompletableFuture<Void>> joins = new java.util.ArrayList<>();
            for (int i = 0; i < MEMBERS; i++) {
                String id = "member-" + i;
                joins.add(CompletableFuture.runAsync(
                        () -> engine.presence().join(channel, id, "session-" + id, INFO), joiners));
            }
            CompletableFuture.allOf(joins.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        }
        assertThat(engine.presence().count(channel)).isEqualTo(MEMBERS);
    }

    /**
     * An extended-protocol client subscribed to the room that asks for its presence info and reads every answer,
     * counting their bytes without keeping them.
     */
    static final class InfoAttacker implements WebSocket.Listener {
        final AtomicLong infoBytes = new AtomicLong();
        final AtomicLong infos = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        final AtomicLong sent = new AtomicLong();
        final AtomicBoolean stop = new AtomicBoolean();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        private final CompletableFuture<Void> welcomed = new CompletableFuture<>();
        private final CompletableFuture<Void> confirmed = new CompletableFuture<>();
        private final StringBuilder head = new StringBuilder();
        private long length;
        private String command;
        WebSocket socket;

        static InfoAttacker connect(URI base, String room) throws Exception {
            InfoAttacker attacker = new InfoAttacker();
            String identifier = new JsonObject().put("channel", "ChatChannel").put("room", room).encode();
            attacker.command = new JsonObject().put("command", "presence").put("identifier", identifier).encode();
            attacker.socket = HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("actioncable-v1-ext-json")
                    .buildAsync(URI.create("ws://127.0.0.1:" + base.getPort() + "/cable?user=info-attacker"), attacker)
                    .get(30, TimeUnit.SECONDS);
            attacker.welcomed.get(30, TimeUnit.SECONDS);
            attacker.socket.sendText(new JsonObject().put("command", "subscribe").put("identifier", identifier)
                    .encode(), true).get(30, TimeUnit.SECONDS);
            attacker.confirmed.get(30, TimeUnit.SECONDS);
            return attacker;
        }

        long answers() {
            return infos.get() + errors.get();
        }

        /** Asks once and returns the answer's size (in characters, the JSON being ASCII). */
        long oneAnswer() throws Exception {
            socket.sendText(command, true).get(30, TimeUnit.SECONDS);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() -> infos.get() >= 1);
            return infoBytes.get();
        }

        /** Sends the command at the command rate until {@link #stop}, on a thread of its own. */
        CompletableFuture<Void> flood() {
            return CompletableFuture.runAsync(() -> {
                long next = System.nanoTime();
                while (!stop.get() && !closed.isDone()) {
                    socket.sendText(command, true).join();
                    sent.incrementAndGet();
                    next += TimeUnit.SECONDS.toNanos(1) / COMMANDS_PER_SECOND;
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(wait);
                    }
                }
            }, Executors.newVirtualThreadPerTaskExecutor());
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            if (head.length() < 512) {
                head.append(data, 0, Math.min(data.length(), 512 - head.length()));
            }
            length += data.length();
            if (last) {
                String text = head.toString();
                if (text.contains("\"type\":\"welcome\"")) {
                    welcomed.complete(null);
                } else if (text.contains("\"type\":\"confirm_subscription\"")) {
                    confirmed.complete(null);
                } else if (text.contains("\"message\":{\"type\":\"info\"")) {
                    infoBytes.addAndGet(length);
                    infos.incrementAndGet();
                } else if (text.contains("\"message\":{\"type\":\"error\"")) {
                    errors.incrementAndGet();
                }
                head.setLength(0);
                length = 0;
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int code, String reason) {
            closed.complete(code);
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            closed.complete(1006);
        }
    }
}
