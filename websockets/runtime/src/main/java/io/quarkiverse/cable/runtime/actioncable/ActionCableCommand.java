package io.quarkiverse.cable.runtime.actioncable;

import io.vertx.core.json.JsonObject;

/**
 * One client command of {@code actioncable-v1-json}, read from a text frame: {@code subscribe}, {@code unsubscribe},
 * {@code message}, or AnyCable's {@code history}, {@code whisper}, {@code join}, {@code leave} and {@code presence}, each
 * naming a subscription by its identifier (a string of
 * JSON). Pure parsing: what a command
 * does is the connection's business.
 */
record ActionCableCommand(Verb verb, String identifier, Object data, Object presence) {

    ActionCableCommand(Verb verb, String identifier, Object data) {
        this(verb, identifier, data, null);
    }

    enum Verb {
        SUBSCRIBE,
        UNSUBSCRIBE,
        MESSAGE,
        /** Extended protocol: replay what an existing subscription missed (after a restored session). */
        HISTORY,
        /** AnyCable's client-to-client signal: data (any JSON) to the other subscribers of the whisper stream. */
        WHISPER,
        /** AnyCable's presence: join the subscription's presence set (presence: {id, info}). */
        JOIN,
        /** AnyCable's presence: leave it. */
        LEAVE,
        /** AnyCable's presence: who is in it (data: {return_records}); answered to this client only. */
        PRESENCE
    }

    /** What a frame was: a command, nothing to act on (a pong), or bad input with the reason. */
    sealed interface Parsed permits Valid, Ignored, Invalid {
    }

    record Valid(ActionCableCommand command) implements Parsed {
    }

    /** A frame the protocol allows and that asks for nothing (a client's {@code pong}). */
    record Ignored() implements Parsed {
    }

    /** Bad input; {@code problem} completes "Action Cable connection N ..." in the log. */
    record Invalid(String problem) implements Parsed {
    }

    private static final int CLIP = 100;

    static Parsed parse(String frame) {
        JsonObject command;
        try {
            command = new JsonObject(frame);
        } catch (RuntimeException e) {
            return new Invalid("sent a frame that is not a JSON object: " + clip(frame));
        }
        Object verb = command.getValue("command");
        if (!(verb instanceof String name)) {
            return new Invalid("sent a frame without a command: " + clip(frame));
        }
        Object identifier = command.getValue("identifier");
        if (!(identifier instanceof String id)) {
            return "pong".equals(name) ? new Ignored()
                    : new Invalid("sent command '" + clip(name) + "' whose identifier is not a string");
        }
        return switch (name) {
            // data: the extended protocol's history request, when there is one.
            // presence: a join to make once confirmed (@anycable/core re-subscribing while it holds a join).
            case "subscribe" -> new Valid(new ActionCableCommand(Verb.SUBSCRIBE, id, command.getValue("history"),
                    command.getValue("presence")));
            case "history" -> new Valid(new ActionCableCommand(Verb.HISTORY, id, command.getValue("history")));
            case "unsubscribe" -> new Valid(new ActionCableCommand(Verb.UNSUBSCRIBE, id, null));
            case "message" -> new Valid(new ActionCableCommand(Verb.MESSAGE, id, command.getValue("data")));
            // Unlike a message's, a whisper's data is JSON as it is, not a string holding JSON.
            case "whisper" -> command.containsKey("data")
                    ? new Valid(new ActionCableCommand(Verb.WHISPER, id, command.getValue("data")))
                    : new Invalid("sent a whisper without data");
            case "join" -> new Valid(new ActionCableCommand(Verb.JOIN, id, null, command.getValue("presence")));
            case "leave" -> new Valid(new ActionCableCommand(Verb.LEAVE, id, null));
            case "presence" -> new Valid(new ActionCableCommand(Verb.PRESENCE, id, command.getValue("data")));
            default -> new Invalid("sent unknown command '" + clip(name) + "'");
        };
    }

    /** The subscription parameters an identifier names, or null when it is not a JSON object. */
    static JsonObject params(String identifier) {
        try {
            return new JsonObject(identifier);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** A {@code message} command's data (a string holding a JSON object), or null when it is not one. */
    static JsonObject messageData(Object data) {
        if (!(data instanceof String text)) {
            return null;
        }
        try {
            return new JsonObject(text);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The action a message's data names ({@code receive} when none), or null when the name is not a string. */
    static String action(JsonObject data) {
        Object action = data.getValue("action");
        return action == null || "".equals(action) ? "receive" : action instanceof String text ? text : null;
    }

    /** A client's string as logs may show it: cut, and with control characters escaped (no forged lines). */
    static String clip(String text) {
        return io.quarkiverse.cable.spi.FailureLog.safe(text.length() > CLIP ? text.substring(0, CLIP) + "..."
                : text);
    }
}
