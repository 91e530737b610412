package io.quarkiverse.cable.runtime.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.quarkiverse.cable.spi.ExcludedSession;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A request body of AnyCable's HTTP broadcaster, read and checked whole before anything is broadcast: one
 * {@code {"stream": ..., "data": ...}} object (with an optional {@code meta} object, of which
 * {@code exclude_socket}, a client's session id, is honoured: the broadcast skips that session; other keys are
 * ignored, as AnyCable does), or a JSON
 * array of them (the gem's batching). {@code data} is the payload text (Rails sends its message already encoded as
 * JSON text); any other JSON value is broadcast as its JSON text. A {@code {"command": "disconnect", "payload":
 * {"identifier": ..., "reconnect": ...}}} object (AnyCable's remote disconnect) closes the sessions of an identity
 * instead: {@code identifier} is the JSON text of the identity's identifiers.
 */
final class BroadcastBody {

    /** One entry of a request: a broadcast, or a command. */
    sealed interface Item {
    }

    /** @param excludeSocket the session the broadcast skips ({@code meta.exclude_socket}); null for none */
    record Broadcast(String stream, String data, String excludeSocket) implements Item {
    }

    /** Close every session of the identity on every node; {@code reconnect} is what their clients are told. */
    record Disconnect(Map<String, String> identifiers, boolean reconnect) implements Item {
    }

    /** Why the body cannot be served, with the status it is answered with. */
    static final class Refused extends Exception {
        final int status;

        Refused(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    private BroadcastBody() {
    }

    /**
     * The entries of {@code body}, in order; refused with 400 (malformed), 413 (too many) or 422 (a command other than
     * {@code disconnect}).
     */
    static List<Item> parse(Buffer body, int maxBatchLength, int maxChannelLength, long maxPayloadSize)
            throws Refused {
        Object decoded;
        try {
            decoded = Json.decodeValue(body);
        } catch (DecodeException e) {
            throw new Refused(400, "The body is not JSON: " + e.getMessage());
        }
        List<Item> items = new ArrayList<>();
        if (decoded instanceof JsonObject single) {
            items.add(item(single, 0, maxChannelLength, maxPayloadSize));
        } else if (decoded instanceof JsonArray batch) {
            if (batch.size() > maxBatchLength) {
                throw new Refused(413, "The batch has " + batch.size()
                        + " broadcasts, over quarkus.cable.http-broadcast.max-batch-length (" + maxBatchLength + ")");
            }
            for (int i = 0; i < batch.size(); i++) {
                if (!(batch.getValue(i) instanceof JsonObject entry)) {
                    throw new Refused(400, "Broadcast " + i + " of the batch is not a JSON object");
                }
                items.add(item(entry, i, maxChannelLength, maxPayloadSize));
            }
        } else {
            throw new Refused(400, "The body must be a JSON object {\"stream\":...,\"data\":...} or an array of them");
        }
        return items;
    }

    private static Item item(JsonObject entry, int index, int maxChannelLength, long maxPayloadSize) throws Refused {
        if (entry.containsKey("command")) {
            return command(entry, index);
        }
        if (!(entry.getValue("stream") instanceof String stream) || stream.isEmpty()) {
            throw new Refused(400, "Broadcast " + index + " has no \"stream\" string");
        }
        if (stream.length() > maxChannelLength) {
            throw new Refused(400, "Broadcast " + index + "'s stream is " + stream.length()
                    + " characters, over quarkus.cable.max-channel-length (" + maxChannelLength + ")");
        }
        Object value = entry.getValue("data");
        if (value == null) {
            throw new Refused(400, "Broadcast " + index + " has no \"data\"");
        }
        String data = value instanceof String text ? text : Json.encode(value);
        long size = data.getBytes(StandardCharsets.UTF_8).length;
        if (size > maxPayloadSize) {
            throw new Refused(400, "Broadcast " + index + "'s data is " + size
                    + " bytes, over quarkus.cable.max-payload-size (" + maxPayloadSize + " bytes)");
        }
        return new Broadcast(stream, data, excludeSocket(entry, index));
    }

    /** AnyCable's {@code meta.exclude_socket}: a string; absent, null or empty excludes nobody. */
    private static String excludeSocket(JsonObject entry, int index) throws Refused {
        Object meta = entry.getValue("meta");
        if (meta == null) {
            return null;
        }
        if (!(meta instanceof JsonObject object)) {
            throw new Refused(400, "Broadcast " + index + "'s \"meta\" is not a JSON object");
        }
        Object socket = object.getValue("exclude_socket");
        if (socket == null || "".equals(socket)) {
            return null;
        }
        if (!(socket instanceof String sid) || sid.getBytes(StandardCharsets.UTF_8).length > ExcludedSession.MAX_LENGTH) {
            throw new Refused(400, "Broadcast " + index + "'s meta.exclude_socket is not a session id (a string of"
                    + " at most " + ExcludedSession.MAX_LENGTH + " bytes)");
        }
        return sid;
    }

    private static Item command(JsonObject entry, int index) throws Refused {
        if (!"disconnect".equals(entry.getValue("command"))) {
            throw new Refused(422, "Broadcast " + index + " is a command the cable does not know ("
                    + entry.getValue("command") + "): only disconnect is");
        }
        if (!(entry.getValue("payload") instanceof JsonObject payload)
                || !(payload.getValue("identifier") instanceof String identifier)) {
            throw new Refused(400, "Command " + index + " (disconnect) has no \"payload\" with an \"identifier\""
                    + " string (the JSON text of the connection's identifiers)");
        }
        Object identifiers;
        try {
            identifiers = Json.decodeValue(identifier);
        } catch (DecodeException e) {
            identifiers = null;
        }
        if (!(identifiers instanceof JsonObject object) || object.isEmpty()) {
            throw new Refused(400, "Command " + index + " (disconnect): its identifier is not the JSON text of an"
                    + " object of identifiers");
        }
        Map<String, String> identity = new TreeMap<>();
        for (Map.Entry<String, Object> field : object) {
            Object value = field.getValue();
            if (value == null || value instanceof JsonObject || value instanceof JsonArray) {
                throw new Refused(400, "Command " + index + " (disconnect): identifier " + field.getKey()
                        + " is not a string or a number");
            }
            identity.put(field.getKey(), value.toString());
        }
        Object reconnect = payload.getValue("reconnect");
        if (reconnect != null && !(reconnect instanceof Boolean)) {
            throw new Refused(400, "Command " + index + " (disconnect): reconnect must be true or false");
        }
        // Rails' RemoteConnection#disconnect reconnects unless told not to.
        return new Disconnect(identity, reconnect == null || (Boolean) reconnect);
    }
}
