package io.quarkiverse.cable;

/**
 * The callbacks of a {@link CableChannel}. Both run on a virtual thread, in order with the connection's other
 * commands, so they may block.
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
}
