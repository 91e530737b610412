package io.quarkiverse.cable.spi;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The stored form of a broadcast "to others": a text payload prefixed with the session it must not reach, so the
 * exclusion travels with the row to every node's poller (no schema change; the adapters store the bytes as they
 * are). The prefix starts with byte {@code 0xFF}, which never occurs in UTF-8 text, so a text payload without it is
 * read as it always was: {@code 0xFF}, the session id's length in bytes (1 to {@value #MAX_LENGTH}), the id (UTF-8),
 * then the payload. Binary payloads carry no prefix (any first byte is theirs), so they cannot exclude a session.
 * Readers of live messages and of history both {@link #read} it, so the prefix never reaches a subscriber.
 */
public final class ExcludedSession {

    /** The longest session id an exclusion carries, in UTF-8 bytes. */
    public static final int MAX_LENGTH = 255;

    private static final byte MARK = (byte) 0xFF;

    /** A stored text payload, split: the session it excludes (null when none) and the payload itself. */
    public record Stored(String session, byte[] payload) {
    }

    private ExcludedSession() {
    }

    /** What to store for text {@code payload} that must not reach {@code session}. */
    public static byte[] write(String session, byte[] payload) {
        byte[] id = session.getBytes(StandardCharsets.UTF_8);
        if (id.length == 0 || id.length > MAX_LENGTH) {
            throw new IllegalArgumentException("an excluded session id has 1 to " + MAX_LENGTH + " bytes, not "
                    + id.length);
        }
        byte[] stored = new byte[2 + id.length + payload.length];
        stored[0] = MARK;
        stored[1] = (byte) id.length;
        System.arraycopy(id, 0, stored, 2, id.length);
        System.arraycopy(payload, 0, stored, 2 + id.length, payload.length);
        return stored;
    }

    /**
     * Splits a stored payload. A binary payload, or text without a well-formed prefix, is returned whole with no
     * session: a malformed prefix (a row written by anything but the cable) excludes nobody.
     */
    public static Stored read(byte[] stored, boolean binary) {
        if (binary || stored.length < 2 || stored[0] != MARK) {
            return new Stored(null, stored);
        }
        int length = stored[1] & 0xFF;
        if (length == 0 || 2 + length > stored.length) {
            return new Stored(null, stored);
        }
        return new Stored(new String(stored, 2, length, StandardCharsets.UTF_8),
                Arrays.copyOfRange(stored, 2 + length, stored.length));
    }
}
