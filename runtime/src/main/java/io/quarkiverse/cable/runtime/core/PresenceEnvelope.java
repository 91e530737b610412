package io.quarkiverse.cable.runtime.core;

import java.nio.charset.StandardCharsets;

import io.quarkiverse.cable.PresenceEvent;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * A presence event as it travels on {@link IdentityChannels#PRESENCE}: {@code <length of the channel's name>:<channel>
 * <event>}, where the event is the JSON an Action Cable client gets as the {@code message} of a presence frame
 * ({@code {"type":"join","id":"42","info":{...}}}, {@code {"type":"leave","id":"42"}}), so a node sends it on unparsed.
 */
public record PresenceEnvelope(String channel, String eventJson) {

    public static byte[] join(String channel, String presenceId, String infoJson) {
        String event = "{\"type\":\"join\",\"id\":" + Json.encode(presenceId)
                + (infoJson == null ? "" : ",\"info\":" + infoJson) + "}";
        return encode(channel, event);
    }

    public static byte[] leave(String channel, String presenceId) {
        return encode(channel, "{\"type\":\"leave\",\"id\":" + Json.encode(presenceId) + "}");
    }

    private static byte[] encode(String channel, String event) {
        return (channel.length() + ":" + channel + event).getBytes(StandardCharsets.UTF_8);
    }

    /** The envelope in {@code text}, or null when it is not one the cable wrote. */
    public static PresenceEnvelope parse(String text) {
        int colon = text.indexOf(':');
        if (colon < 1) {
            return null;
        }
        int length;
        try {
            length = Integer.parseInt(text, 0, colon, 10);
        } catch (NumberFormatException e) {
            return null;
        }
        int eventStart = colon + 1 + length;
        if (length < 1 || eventStart >= text.length()) {
            return null;
        }
        return new PresenceEnvelope(text.substring(colon + 1, eventStart), text.substring(eventStart));
    }

    /** The event for Java listeners. */
    public PresenceEvent event() {
        JsonObject event = new JsonObject(eventJson);
        Object info = event.getValue("info");
        return new PresenceEvent(channel, "join".equals(event.getString("type")) ? PresenceEvent.Type.JOIN
                : PresenceEvent.Type.LEAVE, event.getString("id"), info == null ? null : Json.encode(info));
    }
}
