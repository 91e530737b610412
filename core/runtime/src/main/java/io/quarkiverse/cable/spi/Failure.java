package io.quarkiverse.cable.spi;

/**
 * The kinds of failures the cable counts ({@code cable.errors} by kind) and logs at most once per second per kind and
 * cause ({@link FailureLog}). An adapter reports its own (storage, polling, writing, trimming, wake-ups) in the same
 * vocabulary as the core and the front ends.
 */
public enum Failure {
    QUEUE_FULL,
    STOPPED,
    STORAGE,
    COMMIT_UNKNOWN,
    INVALID,
    POLL,
    WRITE_RETRY,
    TRIM,
    SLOW_CONSUMER,
    LISTENER,
    ORIGIN,
    /** The doorbell or the newest-id probe failed (polling covers it). */
    WAKEUP,
    /** A frame could not be written to a WebSocket that was still open: that client misses it. */
    SEND,
    /** A client refused by a bound of what it may make the server hold or do (counted by reason as well). */
    LIMIT,
    /**
     * Quarkus Security refused an application callback for the identity it runs with (a {@code @RolesAllowed} action
     * called by a client without the role): the client's request is refused, the connection stays.
     */
    FORBIDDEN
}
