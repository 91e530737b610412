package io.quarkiverse.cable.runtime.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A request body of AnyCable's HTTP broadcaster, read and checked whole before anything is broadcast: one
 * {@code {"stream": ..., "data": ...}} object (an optional {@code meta} object is accepted and ignored), or a JSON
 * array of them (the gem's batching). {@code data} is the payload text (Rails sends its message already encoded as
 * JSON text); any other JSON value is broadcast as its JSON text. A {@code {"command": ...}} object asks for a
 * server command instead.
 */
final class BroadcastBody {

    /** One broadcast of a request. */
    record Item(String stream, String data) {
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

    /** The broadcasts of {@code body}, in order; refused with 400 (malformed), 413 (too many) or 422 (a command). */
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
            // AnyCable's {"command":"disconnect","payload":{"identifier":...}} needs connection identities, which the
            // cable does not track yet: say so instead of pretending to have done it.
            throw new Refused(422, "Broadcast " + index + " is a command (" + entry.getValue("command")
                    + "): commands are not supported, connections have no identities to disconnect by");
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
        return new Item(stream, data);
    }
}
