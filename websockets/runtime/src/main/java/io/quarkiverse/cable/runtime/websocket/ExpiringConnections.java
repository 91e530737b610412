package io.quarkiverse.cable.runtime.websocket;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.cable.runtime.frontend.CredentialsExpiry;
import io.quarkiverse.cable.runtime.internals.WebSocketWire;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.Vertx;

/**
 * Closes a streaming endpoint's connection when its credentials expire, as WebSockets Next does by itself (1008,
 * "Authentication expired") for an identity with the expire-time attribute. SmallRye JWT's identities have none; their
 * token's {@code exp} ({@link CredentialsExpiry}) would otherwise keep a stream open past it. One timer per such
 * connection, cancelled when it closes, so a closed connection is not held until its token's end.
 */
final class ExpiringConnections {

    /** WebSockets Next's close for an expired identity, so both look the same to a client. */
    static final CloseReason EXPIRED = new CloseReason(1008, "Authentication expired");

    private final Vertx vertx;
    private final Map<String, Long> timers = new ConcurrentHashMap<>();

    ExpiringConnections(Vertx vertx) {
        this.vertx = vertx;
    }

    void added(WebSocketConnection connection, SecurityIdentity identity) {
        if (identity.getAttribute(CredentialsExpiry.ATTRIBUTE) != null) {
            return; // WebSockets Next closes it itself
        }
        Instant expiresAt = CredentialsExpiry.of(identity);
        if (expiresAt == null) {
            return;
        }
        long delay = Math.max(1, Duration.between(Instant.now(), expiresAt).toMillis());
        timers.put(connection.id(), vertx.setTimer(delay, ignored -> {
            timers.remove(connection.id());
            if (!connection.isClosed()) {
                WebSocketWire.closeQuietly(connection, EXPIRED);
            }
        }));
    }

    void removed(String connectionId) {
        Long timer = timers.remove(connectionId);
        if (timer != null) {
            vertx.cancelTimer(timer);
        }
    }
}
