package io.quarkiverse.cable.test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * One subscription of a {@link CableTestClient}: the commands of {@code actioncable-v1-json} and AnyCable's whispers
 * and presence for it, and what the server sent it. Its frames are the client's whose {@code identifier} is this
 * subscription's; waits are the client's (bounded, matching what arrived before the call too).
 */
public final class CableTestSubscription {

    private final CableTestClient client;
    private final String identifier;

    CableTestSubscription(CableTestClient client, String identifier) {
        this.client = client;
        this.identifier = identifier;
    }

    /** The identifier as sent: a string of JSON, {@code {"channel":"ChatChannel","room":"lobby"}}. */
    public String identifier() {
        return identifier;
    }

    /**
     * Waits for the server's answer to the subscribe command and returns this subscription once it is confirmed.
     *
     * @throws AssertionError when it was rejected (with the reason, when the frame carries one), or not answered in time
     */
    public CableTestSubscription awaitConfirmation() {
        JsonObject answer = awaitAnswer();
        if ("reject_subscription".equals(answer.getString("type"))) {
            throw new AssertionError("The subscription " + identifier + " was rejected" + reasonOf(answer));
        }
        return this;
    }

    /**
     * Waits for the server's answer to the subscribe command, expecting a rejection, and returns its reason: the
     * {@code reason} of the {@code reject_subscription} frame when it has one, else null.
     *
     * @throws AssertionError when the subscription was confirmed, or not answered in time
     */
    public String awaitRejection() {
        JsonObject answer = awaitAnswer();
        if ("confirm_subscription".equals(answer.getString("type"))) {
            throw new AssertionError("Expected the subscription " + identifier + " to be rejected, it was confirmed");
        }
        return answer.getValue("reason") instanceof String reason ? reason : null;
    }

    private JsonObject awaitAnswer() {
        return client.awaitFrame(frame -> ours(frame) && ("confirm_subscription".equals(frame.getString("type"))
                || "reject_subscription".equals(frame.getString("type"))), "the answer to subscribing " + identifier);
    }

    private static String reasonOf(JsonObject reject) {
        return reject.getValue("reason") instanceof String reason ? " (" + reason + ")" : "";
    }

    /** Calls the channel's {@code action} with no data ({@code subscription.perform(action)}). */
    public void perform(String action) {
        perform(action, Map.of());
    }

    /**
     * Calls the channel's {@code action} with {@code data} (any map of JSON values, or a {@code JsonObject}), as
     * {@code subscription.perform(action, data)} does: {@code data} plus {@code "action"}, as a string of JSON.
     */
    public void perform(String action, Map<String, ?> data) {
        if (data.containsKey("action")) {
            throw new IllegalArgumentException("data must not hold \"action\"; it is the first argument");
        }
        JsonObject message = new JsonObject();
        data.forEach(message::put);
        message.put("action", action);
        client.send(command("message").put("data", message.encode()));
    }

    /**
     * Whispers {@code data} (a JSON value: a map, a {@code JsonObject}, a string, a number) to the other subscribers
     * of the channel's whisper stream, as {@code @anycable/web}'s {@code channel.whisper(data)}. The server answers the
     * sender nothing; another client's subscription sees it as a transmission.
     */
    public void whisper(Object data) {
        client.send(command("whisper").put("data", json(data)));
    }

    /**
     * Joins the channel's presence set as {@code id} with {@code info} (a JSON value, or null for none), as
     * {@code channel.presence.join(id, info)}. Await the join with {@link #awaitJoin(String)}: it reaches every
     * member of the set, this one too.
     */
    public void join(String id, Object info) {
        JsonObject presence = new JsonObject().put("id", id);
        if (info != null) {
            presence.put("info", json(info));
        }
        client.send(command("join").put("presence", presence));
    }

    /** Leaves the channel's presence set ({@code channel.presence.leave()}). */
    public void leave() {
        client.send(command("leave"));
    }

    /**
     * Asks who is in the channel's presence set and waits for the answer (its {@code message}):
     * {@code {"type":"info","total":2,"records":[{"id":"ann","info":{...}},...]}}, or {@code {"type":"error",...}}
     * when the server cannot serve it.
     */
    public JsonObject presenceInfo() {
        int before = presenceFrames("info", "error").size();
        client.send(command("presence").put("data", new JsonObject().put("return_records", true)));
        return client.awaitFrame(frame -> presenceOfType(frame, "info", "error"), before,
                "the presence info of " + identifier).getJsonObject("message");
    }

    /** Unsubscribes. Action Cable does not acknowledge it; the connection's commands are handled in order. */
    public void unsubscribe() {
        client.send(command("unsubscribe"));
    }

    /**
     * The messages the server sent this subscription so far, in order: broadcasts of its streams, what the channel
     * transmitted, other clients' whispers. Each is the frame's {@code message} as Vert.x reads JSON: a
     * {@code JsonObject}, a {@code JsonArray}, a string (a Turbo Stream's HTML), a number or a boolean.
     */
    public List<Object> transmissions() {
        return client.frames(this::transmission).stream().map(frame -> frame.getValue("message")).toList();
    }

    /**
     * Waits for a transmission that is a JSON object matching {@code match}, and returns it.
     *
     * @throws AssertionError when none arrived in time (listing what did)
     */
    public JsonObject awaitTransmission(Predicate<? super JsonObject> match) {
        return awaitTransmission(match, client.timeout);
    }

    /** {@link #awaitTransmission(Predicate)} bounded by {@code timeout} instead of the client's. */
    public JsonObject awaitTransmission(Predicate<? super JsonObject> match, Duration timeout) {
        return client.awaitFrame(frame -> transmission(frame) && frame.getValue("message") instanceof JsonObject message
                && match.test(message), 0, "a matching transmission to " + identifier, timeout).getJsonObject("message");
    }

    /**
     * Waits for a transmission equal to {@code expected} (a string, a number, a map or {@code JsonObject}, a list or
     * {@code JsonArray}), compared as JSON.
     *
     * @throws AssertionError when none arrived in time (listing what did)
     */
    public Object awaitTransmissionEqualTo(Object expected) {
        Object wanted = json(expected);
        return client.awaitFrame(frame -> transmission(frame) && Objects.equals(frame.getValue("message"), wanted),
                "the transmission " + Json.encode(wanted) + " to " + identifier).getValue("message");
    }

    /**
     * The presence events of this subscription's set so far, in order (each the frame's {@code message}):
     * {@code {"type":"join","id":"ann","info":{...}}} and {@code {"type":"leave","id":"ann"}}.
     */
    public List<JsonObject> presenceEvents() {
        return presenceFrames("join", "leave").stream().map(frame -> frame.getJsonObject("message")).toList();
    }

    /** Waits for the presence event of {@code id} joining, and returns it (with its {@code info}, when it has one). */
    public JsonObject awaitJoin(String id) {
        return awaitPresenceEvent("join", id);
    }

    /** Waits for the presence event of {@code id} leaving. */
    public JsonObject awaitLeave(String id) {
        return awaitPresenceEvent("leave", id);
    }

    private JsonObject awaitPresenceEvent(String type, String id) {
        return client.awaitFrame(frame -> presenceOfType(frame, type) && id.equals(frame.getJsonObject("message")
                .getString("id")), "the presence " + type + " of " + id + " on " + identifier).getJsonObject("message");
    }

    private List<JsonObject> presenceFrames(String... types) {
        return client.frames(frame -> presenceOfType(frame, types));
    }

    private boolean presenceOfType(JsonObject frame, String... types) {
        if (!ours(frame) || !"presence".equals(frame.getString("type"))
                || !(frame.getValue("message") instanceof JsonObject message)) {
            return false;
        }
        return List.of(types).contains(message.getString("type"));
    }

    /** A message to this subscription: the frame has {@code identifier} and {@code message}, and no type. */
    private boolean transmission(JsonObject frame) {
        return ours(frame) && frame.getValue("type") == null && frame.containsKey("message");
    }

    private boolean ours(JsonObject frame) {
        return identifier.equals(frame.getValue("identifier"));
    }

    private JsonObject command(String name) {
        return new JsonObject().put("command", name).put("identifier", identifier);
    }

    /** A Java value as Vert.x JSON: maps and lists become {@code JsonObject} and {@code JsonArray}. */
    @SuppressWarnings("unchecked")
    private static Object json(Object value) {
        if (value instanceof Map<?, ?> map && !(value instanceof JsonObject)) {
            return new JsonObject((Map<String, Object>) map);
        }
        if (value instanceof List<?> list) {
            return new JsonArray(list);
        }
        return value;
    }
}
