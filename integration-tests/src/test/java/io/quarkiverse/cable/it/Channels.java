package io.quarkiverse.cable.it;

import java.util.UUID;

/** Channel names unique to one test, so tests sharing the application and database never see each other. */
public final class Channels {

    private Channels() {
    }

    public static String unique(String prefix) {
        return prefix + ":" + UUID.randomUUID();
    }
}
