package io.quarkiverse.cable.runtime.actioncable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableListener;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.TurboStream;
import io.quarkiverse.cable.TurboStreams;

/**
 * Signed stream names (byte-compatible with turbo-rails: the expected values were computed independently, with
 * Python's hmac and json, for the key {@code unit-test-key}) and the broadcasts {@link TurboStreams} sends.
 */
class SignedTurboStreamsTest {

    private static final byte[] KEY = "unit-test-key".getBytes(StandardCharsets.UTF_8);
    private static final String CHAT_1 = "ImNoYXQ6MSI=--322902e751e335d639f062c840c1f52f32c7e8ba27556c27ec3ef387058591fc";
    private static final String GID = "ImdpZDovL2FwcC9Sb29tLzE6bWVzc2FnZXMi"
            + "--02c681ea8a303debdd56b388dda152eaa815cd97ffd08c53170d911389af6918";
    private static final String NUMBER = "NDI=--207c08b57a0b0cb4360d1237f23903df53ecebf44e9a4b0f9555a6df9b80d2ad";

    private final Recorded cable = new Recorded();
    private final List<Runnable> timers = new ArrayList<>();
    private final TurboStreams turbo = new SignedTurboStreams(KEY, List.of(), cable,
            new RefreshDebouncer(Duration.ofMillis(500), (delay, task) -> {
                timers.add(task);
                return () -> timers.remove(task);
            }));

    @Test
    void signsLikeTurboRails() {
        assertThat(turbo.signedStreamName("chat", "1")).isEqualTo(CHAT_1);
        assertThat(turbo.signedStreamName("gid://app/Room/1", "messages")).isEqualTo(GID);
        assertThat(turbo.verify(CHAT_1)).isEqualTo("chat:1");
        assertThat(turbo.verify(GID)).isEqualTo("gid://app/Room/1:messages");
        assertThat(turbo.streamSourceTag("chat", "1")).isEqualTo("<turbo-cable-stream-source channel=\"Turbo::StreamsChannel\""
                + " signed-stream-name=\"" + CHAT_1 + "\"></turbo-cable-stream-source>");
    }

    @Test
    void refusesWhatItDidNotSign() {
        String data = CHAT_1.substring(0, CHAT_1.indexOf("--"));
        String signature = CHAT_1.substring(CHAT_1.indexOf("--") + 2);
        assertThat(turbo.verify(null)).isNull();
        assertThat(turbo.verify("")).isNull();
        assertThat(turbo.verify(data)).as("no signature").isNull();
        assertThat(turbo.verify("--" + signature)).as("no data").isNull();
        assertThat(turbo.verify(data + "--")).as("empty signature").isNull();
        assertThat(turbo.verify(data + "--zz" + signature.substring(2))).as("not hex").isNull();
        assertThat(turbo.verify(data + "--" + signature.substring(1))).as("odd length").isNull();
        assertThat(turbo.verify(data + "--" + (signature.charAt(0) == 'a' ? 'b' : 'a') + signature.substring(1)))
                .as("tampered signature").isNull();
        assertThat(turbo.verify("ImNoYXQ6MiI=--" + signature)).as("tampered data (chat:2)").isNull();
        assertThat(new SignedTurboStreams("another-key".getBytes(StandardCharsets.UTF_8), List.of(), cable).verify(CHAT_1))
                .as("another key").isNull();
        assertThat(turbo.verify(NUMBER)).as("signed, but not a string").isNull();
        assertThat(turbo.verify("!!!--e54336d430acd698481eb5915765f3d5988b28130b5d5c8f6695776710715343"))
                .as("signed, but not base64").isNull();
        assertThat(turbo.verify("bm90IGpzb24=--5661f6a72014164eb859638a78eddedc95b9482cba84de10580495f7fb5540a9"))
                .as("signed, but not JSON").isNull();
    }

    @Test
    void previousKeysVerifyUntilRemoved() {
        byte[] old = "the-previous-key-of-at-least-32-bytes".getBytes(StandardCharsets.UTF_8);
        byte[] current = "the-current-key-of-at-least-32-bytes!".getBytes(StandardCharsets.UTF_8);
        String signedWithOld = new SignedTurboStreams(old, List.of(), cable).signedStreamName("chat", "1");

        TurboStreams rotating = new SignedTurboStreams(current, List.of(old), cable);
        assertThat(rotating.verify(signedWithOld)).as("signed with a listed previous key").isEqualTo("chat:1");
        String signedNow = rotating.signedStreamName("chat", "1");
        assertThat(signedNow).as("new names are signed with the current key").isNotEqualTo(signedWithOld)
                .isEqualTo(new SignedTurboStreams(current, List.of(), cable).signedStreamName("chat", "1"));
        assertThat(rotating.verify(signedNow)).isEqualTo("chat:1");

        TurboStreams rotated = new SignedTurboStreams(current, List.of(), cable);
        assertThat(rotated.verify(signedWithOld)).as("the previous key removed: its names are revoked").isNull();
        assertThat(rotated.verify(signedNow)).isEqualTo("chat:1");
    }

    @Test
    void aForgedSignatureIsRejectedByEveryKey() {
        byte[] old = "the-previous-key-of-at-least-32-bytes".getBytes(StandardCharsets.UTF_8);
        TurboStreams rotating = new SignedTurboStreams(KEY, List.of(old), cable);
        // A name whose signature an attacker computed with a key of his own, and one with the data swapped.
        String forged = new SignedTurboStreams("an-attackers-own-key-of-32-bytes-or-more".getBytes(StandardCharsets.UTF_8),
                List.of(), cable).signedStreamName("admin", "secrets");
        assertThat(rotating.verify(forged)).isNull();
        String swapped = "ImFkbWluIg==" + CHAT_1.substring(CHAT_1.indexOf("--"));
        assertThat(rotating.verify(swapped)).as("another name under a valid signature").isNull();
    }

    @Test
    void withoutAKeyNothingIsSigned() {
        TurboStreams unsigned = new SignedTurboStreams(null, List.of(), cable);
        assertThatThrownBy(() -> unsigned.signedStreamName("chat")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("quarkus.cable.turbo.signing-key");
    }

    @Test
    void broadcastsRenderedElementsToTheJoinedStream() {
        turbo.broadcast("append", "messages", "<p>1</p>", "rooms", "1");
        turbo.broadcast(TurboStream.action("replace").targets(".card").method("morph").template("<i>2</i>"), "rooms", "1");
        turbo.broadcastRefresh("req-1", "rooms", "1");
        assertThat(cable.sent).containsExactly(
                "rooms:1 <turbo-stream action=\"append\" target=\"messages\"><template><p>1</p></template></turbo-stream>",
                "rooms:1 <turbo-stream action=\"replace\" targets=\".card\" method=\"morph\"><template><i>2</i></template>"
                        + "</turbo-stream>",
                "rooms:1 <turbo-stream action=\"refresh\" request-id=\"req-1\"></turbo-stream>");
        assertThatThrownBy(() -> turbo.broadcast("append", null, "<p>x</p>", "rooms"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a target");
        assertThat(cable.sent).hasSize(3);
    }

    @Test
    void refreshesLaterAreDebouncedPerStreamAndRequestId() {
        List<CompletionStage<Void>> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            calls.add(turbo.broadcastRefreshLater("req-1", "rooms", "1"));
        }
        calls.add(turbo.broadcastRefreshLater("req-2", "rooms", "1"));
        calls.add(turbo.broadcastRefreshLater(null, "rooms", "2"));
        assertThat(cable.sent).as("nothing before the delay").isEmpty();
        assertThat(timers).as("one waiting timer per stream and request id").hasSize(3);

        new ArrayList<>(timers).forEach(Runnable::run);
        assertThat(cable.sent).containsExactlyInAnyOrder(
                "rooms:1 <turbo-stream action=\"refresh\" request-id=\"req-1\"></turbo-stream>",
                "rooms:1 <turbo-stream action=\"refresh\" request-id=\"req-2\"></turbo-stream>",
                "rooms:2 <turbo-stream action=\"refresh\"></turbo-stream>");
        assertThat(calls).allSatisfy(call -> assertThat(call.toCompletableFuture()).isCompleted());

        timers.clear();
        turbo.broadcastRefreshLater("req-1", "rooms", "1");
        timers.get(0).run();
        assertThat(cable.sent).as("a refresh after the last one fired is sent again").hasSize(4);
    }

    /** Records broadcasts as "channel payload"; commits at once. */
    private static final class Recorded implements Cable {
        final List<String> sent = new ArrayList<>();

        @Override
        public CompletionStage<Void> broadcast(String channel, String payload) {
            sent.add(channel + " " + payload);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletionStage<Void> broadcast(String channel, byte[] payload) {
            return broadcast(channel, new String(payload, StandardCharsets.UTF_8));
        }

        @Override
        public Subscription subscribe(String channel, CableListener listener) {
            throw new UnsupportedOperationException("not used by TurboStreams");
        }

        @Override
        public Subscription subscribe(String channel, StreamPosition after, CableListener listener) {
            throw new UnsupportedOperationException("not used by TurboStreams");
        }

        @Override
        public String adapter() {
            return "recorded";
        }
    }
}
