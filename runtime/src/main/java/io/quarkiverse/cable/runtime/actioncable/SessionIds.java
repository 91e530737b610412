package io.quarkiverse.cable.runtime.actioncable;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Session ids for the extended protocol's welcome. Sessions are not restored, so an id names nothing a client could
 * take over; it is still 128 random bits, so that restoring sessions later cannot turn guessable ids into credentials.
 */
final class SessionIds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private SessionIds() {
    }

    static String next() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
