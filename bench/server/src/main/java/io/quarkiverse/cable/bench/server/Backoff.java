package io.quarkiverse.cable.bench.server;

import java.time.Duration;

/** Reconnection delays of the relays' subscriptions: 100 ms, doubling up to 5 s, back to 100 ms after a success. */
final class Backoff {

    private static final Duration FIRST = Duration.ofMillis(100);
    private static final Duration MAX = Duration.ofSeconds(5);

    private Duration next = FIRST;

    /** The delay before the next attempt; each call doubles the one after. */
    Duration next() {
        Duration current = next;
        Duration doubled = current.multipliedBy(2);
        next = doubled.compareTo(MAX) < 0 ? doubled : MAX;
        return current;
    }

    void reset() {
        next = FIRST;
    }
}
