package io.quarkiverse.cable.runtime.actioncable;

import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.runtime.delivery.Delivery;

/**
 * A whisper on the way between nodes: {@code <sender's session id>\n<data as JSON>} on the stream's whisper channel
 * ({@code IdentityChannels.whispersOf}). Text, not a JSON object around the data: each receiving subscription finds
 * the sender with one search for the newline instead of parsing the data, which goes out as it came.
 */
final class Whispers {

    private Whispers() {
    }

    /** What goes to the database for a whisper of {@code dataJson} from session {@code sessionId}. */
    static byte[] envelope(String sessionId, String dataJson) {
        return (sessionId + "\n" + dataJson).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Hands a stream's whispers to one subscription as {@code {"identifier":...,"message":<data>}}, except the ones its
     * own connection sent: the sender never hears itself, as in AnyCable (its whole session is excluded).
     */
    static final class Receiver implements Delivery {

        private final String ownSession;
        private final String encodedIdentifier;
        private final Predicate<Object> sink;
        private final int limit;

        Receiver(String ownSession, String encodedIdentifier, Predicate<Object> sink, int limit) {
            this.ownSession = ownSession;
            this.encodedIdentifier = encodedIdentifier;
            this.sink = sink;
            this.limit = limit;
        }

        @Override
        public boolean offer(CableMessage message) {
            String text = message.text();
            int newline = text.indexOf('\n');
            if (newline < 0 || text.regionMatches(0, ownSession, 0, newline) && newline == ownSession.length()) {
                return true; // its own whisper (or nothing the cable wrote): nothing to send
            }
            return sink.test(Frames.message(encodedIdentifier, text.substring(newline + 1)));
        }

        @Override
        public void discard() {
        }

        @Override
        public int limit() {
            return limit;
        }
    }
}
