package io.quarkiverse.cable.spi;

import java.util.concurrent.ThreadLocalRandom;

/** Names for new epochs: the creation second (base 36) and 6 random characters. */
public final class Epochs {

    private static final String ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

    private Epochs() {
    }

    /**
     * A new epoch name. The random part keeps two incarnations of a channel created within the same second (a row
     * deleted and recreated, a restarted memory adapter) apart: a client holding a position of the old one must be
     * told its history is gone, not be replayed positions of the new one.
     */
    public static String newEpoch(long epochSecond) {
        StringBuilder epoch = new StringBuilder(Long.toString(epochSecond, 36));
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < 6; i++) {
            epoch.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return epoch.toString();
    }
}
