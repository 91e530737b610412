package io.quarkiverse.cable.spi;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The 64-bit key a channel is stored and looked up by: the first 8 bytes of the SHA-256 of its UTF-8 name, read as a
 * big-endian signed long. Any node, in any language, computes the same value, so the messages table can be shared
 * and queried by hash without indexing long channel names.
 */
public final class ChannelHash {

    private ChannelHash() {
    }

    public static long of(String channel) {
        byte[] digest = sha256().digest(channel.getBytes(StandardCharsets.UTF_8));
        long hash = 0;
        for (int i = 0; i < 8; i++) {
            hash = (hash << 8) | (digest[i] & 0xFF);
        }
        return hash;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
