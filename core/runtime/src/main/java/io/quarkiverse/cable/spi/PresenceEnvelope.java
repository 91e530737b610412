package io.quarkiverse.cable.spi;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.quarkiverse.cable.PresenceEvent;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * A presence event as it travels on {@link #CHANNEL}: {@code <length of the channel's name>:<channel>
 * <event>}, where the event is the JSON an Action Cable client gets as the {@code message} of a presence frame
 * ({@code {"type":"join","id":"42","info":{...}}}, {@code {"type":"update","id":"42","info":{...}}},
 * {@code {"type":"leave","id":"42"}}), so a node sends it on unparsed.
 */
public record PresenceEnvelope(String channel, String eventJson) {

    /** The channel every presence change is written to, and every node reads. */
    public static final String CHANNEL = "cable:presence";

    /** How a presence event starts when it is a message of its channel's stream. */
    private static final String IN_STREAM_PREFIX = "{\"$presence\":";
    /** Every change writes its envelope here: hashed once, not per event. */
    private static final long PRESENCE_HASH = ChannelHash.of(CHANNEL);

    /**
     * The messages a join writes: its envelope on {@link #CHANNEL}, which every node turns into the
     * live presence frames of the channel's subscribers, and, {@code inStream}, the event as a message of the
     * channel's own stream ({@code quarkus.cable.presence.in-stream}, see {@link #messages}).
     */
    public static List<OutgoingMessage> joined(String channel, String presenceId, String infoJson, boolean inStream) {
        return messages(channel, "{\"type\":\"join\",\"id\":" + Json.encode(presenceId)
                + (infoJson == null ? "" : ",\"info\":" + infoJson) + "}", inStream);
    }

    /**
     * The messages a join of a member already in the set writes when it brings other info (Phoenix's
     * {@code presence_diff}, Ably's {@code update}): every member sees the new info without asking {@code info()}.
     */
    public static List<OutgoingMessage> updated(String channel, String presenceId, String infoJson, boolean inStream) {
        return messages(channel, "{\"type\":\"update\",\"id\":" + Json.encode(presenceId)
                + (infoJson == null ? "" : ",\"info\":" + infoJson) + "}", inStream);
    }

    /** The messages a leave writes, as {@link #joined}. */
    public static List<OutgoingMessage> left(String channel, String presenceId, boolean inStream) {
        return messages(channel, "{\"type\":\"leave\",\"id\":" + Json.encode(presenceId) + "}", inStream);
    }

    /**
     * {@code quarkus.cable.presence.in-stream}: the event also goes to the channel's stream as the broadcast
     * {@code {"$presence":<event>}}, in the same transaction as the change, so it gets a position between the
     * channel's messages and a client that recovers its history gets the joins and leaves it missed, in order with
     * them. The caller decides (the cable's own presence sets, identities, have no stream).
     */
    private static List<OutgoingMessage> messages(String channel, String event, boolean inStream) {
        OutgoingMessage envelope = message(CHANNEL, PRESENCE_HASH,
                channel.length() + ":" + channel + event);
        if (!inStream) {
            return List.of(envelope);
        }
        return List.of(envelope, message(channel, ChannelHash.of(channel), IN_STREAM_PREFIX + event + "}"));
    }

    private static OutgoingMessage message(String channel, long channelHash, String payload) {
        return new OutgoingMessage(channel, channelHash, payload.getBytes(StandardCharsets.UTF_8), false,
                System.nanoTime(), new CompletableFuture<>());
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

    /**
     * Whether the event is one the cable writes ({@link #joined}, {@link #updated}, {@link #left}): a JSON object with
     * {@code type} {@code join} or {@code update} (a string {@code id}, an optional {@code info}) or {@code leave} (a
     * string {@code id}), and nothing else. The event is spliced into frames as it is, so a row on {@link #CHANNEL} written by
     * anything but the cable
     * (SQL with the table's rights) must not reach them otherwise: a text that closes the frame's object early adds
     * keys of its own to it (a {@code "type":"disconnect"} stops a client for good).
     */
    public boolean wellFormed() {
        JsonObject event;
        try {
            // One JSON object and nothing after it (Vert.x refuses trailing tokens).
            event = new JsonObject(eventJson);
        } catch (RuntimeException e) {
            return false;
        }
        if (!(event.getValue("id") instanceof String)) {
            return false;
        }
        Object type = event.getValue("type");
        if ("leave".equals(type)) {
            return event.size() == 2;
        }
        return ("join".equals(type) || "update".equals(type))
                && event.size() == (event.containsKey("info") ? 3 : 2);
    }

    /** The event for Java listeners. */
    public PresenceEvent event() {
        JsonObject event = new JsonObject(eventJson);
        Object info = event.getValue("info");
        PresenceEvent.Type type = switch (event.getString("type")) {
            case "join" -> PresenceEvent.Type.JOIN;
            case "update" -> PresenceEvent.Type.UPDATE;
            default -> PresenceEvent.Type.LEAVE;
        };
        return new PresenceEvent(channel, type, event.getString("id"), info == null ? null : Json.encode(info));
    }
}
