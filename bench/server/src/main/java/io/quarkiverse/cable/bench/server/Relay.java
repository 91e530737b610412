package io.quarkiverse.cable.bench.server;

/**
 * Carries a channel's broadcast to the subscribers of its stream. The implementation is chosen with
 * {@code bench.relay}; the channels only know this interface, so every relay serves the same Action Cable traffic.
 */
public interface Relay {

    /**
     * Sends {@code jsonPayload} (one encoded JSON value) to every subscriber of {@code stream}. Called from channel
     * actions, which run on virtual threads and may block. Failures are logged and counted, never thrown: the client
     * then simply receives nothing, as with Rails.
     */
    void publish(String stream, String jsonPayload);

    /** Whether the relay can deliver right now (its subscription to the broker is live). */
    boolean ready();

    RelayCounters counters();
}
