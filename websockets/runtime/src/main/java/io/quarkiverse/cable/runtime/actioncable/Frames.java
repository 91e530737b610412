package io.quarkiverse.cable.runtime.actioncable;

import java.io.IOException;
import java.util.Base64;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;

import io.quarkiverse.cable.CableMessage;
import io.vertx.core.json.Json;

/**
 * The exact frames of {@code actioncable-v1-json} and of its extension {@code actioncable-v1-ext-json}, one JSON
 * object each.
 */
final class Frames {

    static final String WELCOME = "{\"type\":\"welcome\"}";
    private static final JsonFactory JSON = new JsonFactory();

    private Frames() {
    }

    /** The extended protocol's welcome, with the connection's session id. */
    static String welcome(String sid) {
        return "{\"type\":\"welcome\",\"sid\":" + Json.encode(sid) + "}";
    }

    static String confirmHistory(String encodedIdentifier) {
        return "{\"type\":\"confirm_history\",\"identifier\":" + encodedIdentifier + "}";
    }

    static String rejectHistory(String encodedIdentifier) {
        return "{\"type\":\"reject_history\",\"identifier\":" + encodedIdentifier + "}";
    }

    /**
     * A broadcast in the extended protocol: the v1-json frame plus the message's stream position ({@code stream_id}
     * is the cable channel). A message without a position (none was stored) goes as in v1-json.
     */
    static String extendedBroadcast(String encodedIdentifier, CableMessage message) {
        return extendedBroadcast(encodedIdentifier, message, messageValue(message));
    }

    /** {@link #extendedBroadcast(String, CableMessage)} around {@code value}, the message's {@link #messageValue}. */
    static String extendedBroadcast(String encodedIdentifier, CableMessage message, String value) {
        if (message.epoch() == null) {
            return message(encodedIdentifier, value);
        }
        return "{\"identifier\":" + encodedIdentifier + ",\"message\":" + value + ",\"stream_id\":"
                + Json.encode(message.channel()) + ",\"epoch\":" + Json.encode(message.epoch()) + ",\"offset\":"
                + message.position() + "}";
    }

    static String ping(long epochSeconds) {
        return "{\"type\":\"ping\",\"message\":" + epochSeconds + "}";
    }

    static String disconnect(String reason, boolean reconnect) {
        return "{\"type\":\"disconnect\",\"reason\":" + (reason == null ? "null" : Json.encode(reason))
                + ",\"reconnect\":" + reconnect + "}";
    }

    static String confirm(String encodedIdentifier) {
        return "{\"identifier\":" + encodedIdentifier + ",\"type\":\"confirm_subscription\"}";
    }

    static String reject(String encodedIdentifier) {
        return "{\"identifier\":" + encodedIdentifier + ",\"type\":\"reject_subscription\"}";
    }

    /**
     * A rejection with its reason: the frame plus a {@code reason} field, which {@code @rails/actioncable} and
     * {@code @anycable/core} ignore (they read {@code type} and {@code identifier} only), so every client can get it.
     */
    static String reject(String encodedIdentifier, String reason) {
        return reason == null ? reject(encodedIdentifier)
                : "{\"identifier\":" + encodedIdentifier + ",\"type\":\"reject_subscription\",\"reason\":"
                        + io.vertx.core.json.Json.encode(reason) + "}";
    }

    /** A presence frame ({@code message}: a join or leave event, an info reply or an error), as AnyCable sends it. */
    static String presence(String encodedIdentifier, String messageJson) {
        return "{\"type\":\"presence\",\"identifier\":" + encodedIdentifier + ",\"message\":" + messageJson + "}";
    }

    /** The error presence frame: it ends a client's wait for {@code presence.info()} (AnyCable's shape). */
    static String presenceError(String encodedIdentifier) {
        return presence(encodedIdentifier, "{\"type\":\"error\",\"total\":0}");
    }

    /**
     * The answer to {@code presence}: {@code total} ids, and their records unless the client asked for none. An empty
     * set has {@code "records":[]} (clients before {@code @anycable/core} 1.1.6 fail without it).
     */
    static String presenceInfo(String encodedIdentifier, io.quarkiverse.cable.PresenceSnapshot snapshot,
            boolean withRecords) {
        StringBuilder message = new StringBuilder("{\"type\":\"info\",\"total\":").append(snapshot.total());
        if (withRecords) {
            message.append(",\"records\":[");
            String separator = "";
            for (io.quarkiverse.cable.PresenceRecord record : snapshot.records()) {
                message.append(separator).append("{\"id\":").append(Json.encode(record.id()));
                if (record.info() != null) {
                    message.append(",\"info\":").append(record.info());
                }
                message.append('}');
                separator = ",";
            }
            message.append(']');
        }
        return presence(encodedIdentifier, message.append('}').toString());
    }

    /**
     * An action the application's security refused ({@code refusal}: {@code forbidden} or {@code unauthorized}). The
     * protocol has no frame for it, so it is a message to the subscription, which every client hands to the
     * subscription's {@code received} as Rails' idiom ({@code transmit error: ...}) does; {@code action} is one of the
     * channel's declared action names, never the client's text.
     */
    static String actionRefused(String encodedIdentifier, String action, String refusal) {
        return message(encodedIdentifier, "{\"error\":" + Json.encode(refusal) + ",\"action\":" + Json.encode(action) + "}");
    }

    static String message(String encodedIdentifier, String messageJson) {
        return "{\"identifier\":" + encodedIdentifier + ",\"message\":" + messageJson + "}";
    }

    /**
     * A broadcast as the {@code message} value: a payload that is one JSON value goes as it is (what Rails broadcasts);
     * any other text (a Turbo Stream's HTML) as a JSON string; a binary payload as a base64 JSON string.
     */
    static String broadcast(String encodedIdentifier, CableMessage message) {
        return message(encodedIdentifier, messageValue(message));
    }

    /**
     * The {@code message} value of a broadcast's frames, the same whatever the identifier: made once per broadcast and
     * node ({@link IdentifierFrames}), since telling whether a payload is one JSON value reads all of it.
     */
    static String messageValue(CableMessage message) {
        if (message.binary()) {
            return Json.encode(Base64.getEncoder().encodeToString(message.payload()));
        }
        String text = message.text();
        return isJson(text) ? text : Json.encode(text);
    }

    static boolean isJson(String text) {
        try (JsonParser parser = JSON.createParser(text)) {
            if (parser.nextToken() == null) {
                return false;
            }
            parser.skipChildren();
            return parser.nextToken() == null;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
