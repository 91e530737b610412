package io.quarkiverse.cable;

/**
 * The callbacks of a {@link CableChannel}, the alternative to its {@link OnSubscribe} and {@link OnUnsubscribe}
 * methods (a class may not override a callback and have the method replacing it). Both run on a virtual thread, in
 * order with the connection's other commands, so they may block. A channel that does not implement it gets the
 * default {@link #whispered}.
 */
public interface ChannelHandler {

    /**
     * A client subscribed. Call {@link ChannelSubscription#streamFrom(String)} for each cable channel it should receive,
     * or {@link ChannelSubscription#reject()}. The confirmation is sent after this returns, once every stream is live,
     * so no broadcast made after the confirmation can be missed.
     */
    default void subscribed(ChannelSubscription subscription) {
    }

    /** The client unsubscribed or the connection closed; the streams are already stopped. */
    default void unsubscribed(ChannelSubscription subscription) {
    }

    /** The field of a whisper that names its sender ({@link #whispered}). */
    String WHISPER_SENDER = "from";

    /**
     * The client of {@code sender} whispered {@code data} (its JSON: a JsonObject, a String, a number, a list...) to the
     * subscription's whisper stream ({@link ChannelSubscription#whisperTo}); what this returns fans out to the other
     * subscribers, null refuses the whisper (nothing is sent, the refusal is logged as invalid input). Runs on a
     * virtual thread in order with the connection's other commands, before the whisper is written, so a filter here
     * costs the whispering client's latency only.
     * <p>
     * By default a whisper that is a JSON object goes out with its sender stamped by the server: its
     * {@value #WHISPER_SENDER} field is set to the sender's {@link ChannelSubscription#connectionPresenceId()} (removed
     * for a connection nothing identified), whatever the client put there, so {@code mallory} cannot whisper as
     * {@code alice}. Other whispers (a bare string or number) go out as they came and prove nothing about who sent
     * them: override this to refuse them, or to stamp, filter or rewrite whispers as the channel needs.
     */
    default Object whispered(ChannelSubscription sender, Object data) {
        if (!(data instanceof io.vertx.core.json.JsonObject object)) {
            return data;
        }
        io.vertx.core.json.JsonObject stamped = object.copy();
        String from = sender.connectionPresenceId();
        if (from == null) {
            stamped.remove(WHISPER_SENDER);
        } else {
            stamped.put(WHISPER_SENDER, from);
        }
        return stamped;
    }
}
