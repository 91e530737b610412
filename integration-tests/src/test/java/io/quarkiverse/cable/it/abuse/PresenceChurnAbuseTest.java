package io.quarkiverse.cable.it.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.json.JsonObject;

/**
 * Issue 45, Low list: with {@code presence.in-stream}, every join and leave is a message of the room's stream, so one
 * connection churning join/leave (within the command rate) used to push the room past {@code history.max-replay} in
 * about 15 s, its real messages out of the replay window. One connection asks for 400 changes in 4 s on its
 * subscription: at most {@code presence.changes-per-second} (2) a second and a burst of five seconds' worth reach the
 * stream; the rest are answered with the presence error frame, counted as {@code presence_rate}. (A page joining many
 * rooms at once is not refused: {@code AbuseTest}'s presence case joins 60 subscriptions of one connection.)
 */
@QuarkusTest
@DatabaseIndependent
@TestProfile(PresenceChurnAbuseTest.InStream.class)
public class PresenceChurnAbuseTest {

    public static class InStream implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.presence.in-stream", "true");
        }
    }

    private static final int PAIRS_PER_SECOND = 50;
    private static final int SECONDS = 4;

    @TestHTTPResource("/")
    URI base;

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Test
    void joinLeaveChurnOfOneConnectionIsBounded() throws Exception {
        String room = "open-churn-" + UUID.randomUUID();
        AtomicInteger inStream = new AtomicInteger();
        long refusedBefore = engine.stats().refusals(CableStats.Refusal.PRESENCE_RATE);
        try (Subscription stream = cable.subscribe("chat:" + room, message -> {
            if (message.text().contains("\"$presence\"")) {
                inStream.incrementAndGet();
            }
        }); RawWsClient churner = RawWsClient.connect(base, "/cable?user=churner", AbuseTest.V1, 1 << 20)) {
            String identifier = new JsonObject().put("channel", "ChatChannel").put("room", room).encode();
            churner.readTexts(1, Duration.ofSeconds(60)); // the welcome
            churner.sendText(new JsonObject().put("command", "subscribe").put("identifier", identifier).encode());
            assertThat(churner.readTexts(1, Duration.ofSeconds(60)).get(0)).contains("confirm_subscription");
            String join = new JsonObject().put("command", "join").put("identifier", identifier)
                    .put("presence", new JsonObject().put("id", "churner").put("info", new JsonObject())).encode();
            String leave = new JsonObject().put("command", "leave").put("identifier", identifier).encode();
            long started = System.nanoTime();
            // 100 commands a second: the default command rate, so only the presence bound refuses anything.
            for (int second = 0; second < SECONDS; second++) {
                long due = started + (second + 1) * 1_000_000_000L;
                for (int i = 0; i < PAIRS_PER_SECOND; i++) {
                    churner.sendText(join);
                    churner.sendText(leave);
                }
                Thread.sleep(Math.max(0, (due - System.nanoTime()) / 1_000_000));
            }
            int asked = 2 * PAIRS_PER_SECOND * SECONDS;
            long seconds = (System.nanoTime() - started) / 1_000_000_000L + 1;
            // Commands run in order: once a later subscribe is answered, every change above was decided.
            String other = new JsonObject().put("channel", "ChatChannel").put("room", room + "-end").encode();
            churner.sendText(new JsonObject().put("command", "subscribe").put("identifier", other).encode());
            // The answers: an error frame per refused change, the live presence frame and the stream's message of
            // each admitted one, then the confirmation.
            long errorFrames = 0;
            while (true) {
                String text = churner.readTexts(1, Duration.ofSeconds(120)).get(0);
                if (text.contains("confirm_subscription") && text.contains("-end")) {
                    break;
                }
                if (text.contains("\"type\":\"error\"")) {
                    errorFrames++;
                }
            }
            long refused = engine.stats().refusals(CableStats.Refusal.PRESENCE_RATE) - refusedBefore;
            // What may go: a burst of 10 and 2 a second, over the seconds the churn took (and the answers' wait).
            long admittedBound = 10 + 2 * (seconds + 2);
            // The admitted ones reach the stream (each join or leave that changed the set, one message each); read
            // before the assertions, so a run without the bound shows what the churn wrote too.
            Awaitility.await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(60))
                    .until(() -> inStream.get() >= 1);
            System.out.printf("PRESENCE-CHURN %d changes asked in %d s, %d refused, %d error frames, %d in-stream"
                    + " presence messages%n", asked, seconds, refused, errorFrames, inStream.get());
            assertThat(refused).as("changes refused").isGreaterThanOrEqualTo(asked - admittedBound);
            assertThat(errorFrames).as("presence error frames").isEqualTo(refused);
            assertThat(inStream.get()).as("presence messages in the room's stream").isLessThanOrEqualTo(
                    (int) admittedBound);
        }
    }
}
