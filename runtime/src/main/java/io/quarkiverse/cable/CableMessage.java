package io.quarkiverse.cable;

import java.nio.charset.StandardCharsets;

/**
 * One broadcast as it is delivered to subscribers. The same instance is handed to every local subscriber of the
 * channel, so the payload is decoded from the database once per node.
 *
 * @param id the global message id; ids grow in commit order
 * @param channel the channel name
 * @param payload the raw payload bytes (UTF-8 for text broadcasts); do not modify
 * @param binary whether the message was broadcast as bytes rather than text
 */
public record CableMessage(long id, String channel, byte[] payload, boolean binary) {

    /** The payload as text (decoded as UTF-8). */
    public String text() {
        return new String(payload, StandardCharsets.UTF_8);
    }
}
