package io.quarkiverse.cable.runtime.core;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Session ids: the extended protocol's welcome, and the presence sessions of Action Cable connections and of
 * WebSockets Next connections ({@code CableStreams.joinPresence}) and SSE streams
 * ({@code CableEventStream.streamWithPresence}). Sessions are not restored, so an id names nothing a
 * client could take over; it is still 128 random bits, so that restoring sessions later cannot turn guessable ids into
 * credentials, and so that ids of different front ends and nodes never meet in the presence tables.
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
