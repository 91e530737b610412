package io.quarkiverse.cable.runtime.core;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import io.vertx.core.json.JsonObject;

/**
 * The stored form of a remote disconnect, {@code {"type":"disconnect","identifiers":{...},"reconnect":true}}, on
 * {@link IdentityChannels#CONTROL}. Only the cable writes that channel, so what is read back is trusted; it is still
 * decoded defensively (a row written by hand in SQL).
 */
record DisconnectCommand(Map<String, String> identifiers, boolean reconnect) {

    byte[] encode() {
        JsonObject ids = new JsonObject();
        identifiers.forEach(ids::put);
        return new JsonObject().put("type", "disconnect").put("identifiers", ids).put("reconnect", reconnect).encode()
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The command in {@code payload}, or null when it is not one. */
    static DisconnectCommand decode(byte[] payload) {
        JsonObject json;
        try {
            json = new JsonObject(new String(payload, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            return null;
        }
        if (!"disconnect".equals(json.getValue("type")) || !(json.getValue("identifiers") instanceof JsonObject ids)
                || ids.isEmpty()) {
            return null;
        }
        Map<String, String> identifiers = new HashMap<>();
        for (Map.Entry<String, Object> entry : ids) {
            if (!(entry.getValue() instanceof String value)) {
                return null;
            }
            identifiers.put(entry.getKey(), value);
        }
        // Action Cable's default: reconnect unless told otherwise.
        return new DisconnectCommand(Map.copyOf(identifiers), !Boolean.FALSE.equals(json.getValue("reconnect")));
    }
}
