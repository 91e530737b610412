package io.quarkiverse.cable;

import java.util.Map;

/**
 * Identifies Action Cable connections (Rails' {@code ApplicationCable::Connection#connect}). Declare one CDI bean
 * implementing it; without one, a connection is identified by the authenticated user's name when Quarkus Security
 * authenticated the upgrade request ({@code user}), and accepted anonymously otherwise.
 */
public interface CableIdentification {

    /**
     * Returns the connection's identifiers (for example {@code Map.of("user", "42")}), or null to reject the connection:
     * the client then receives {@code {"type":"disconnect","reason":"unauthorized","reconnect":false}}. Runs on a
     * virtual thread, so it may block.
     */
    Map<String, String> identify(CableRequest request);
}
