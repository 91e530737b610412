package io.quarkiverse.cable.runtime.core;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

import io.quarkiverse.cable.CableMessage;

/**
 * A node's one subscription of a channel of the cable's own that carries the traffic of many streams (the whispers,
 * the presence events): each message's text goes to the reader's dispatcher, which finds the local receivers. One
 * subscription per node, so a receiver costs the dispatcher an entry, not a subscription of the engine. Made by
 * {@link CableEngine#channelReader}; the subscription is made on first use, again when the cable ended it.
 */
public final class ChannelReader {

    private final Function<Delivery, LocalSubscription> subscribe;
    private final Consumer<String> dispatch;
    private LocalSubscription subscription;

    /** {@code subscribe} subscribes a delivery to the channel; {@code dispatch} runs on the poller, never blocks. */
    ChannelReader(Function<Delivery, LocalSubscription> subscribe, Consumer<String> dispatch) {
        this.subscribe = subscribe;
        this.dispatch = dispatch;
    }

    /** Completes once the node reads the channel (subscribing again if the cable ended the last subscription). */
    public synchronized CompletableFuture<Void> reading() {
        if (subscription == null || subscription.closed().toCompletableFuture().isDone()) {
            subscription = subscribe.apply(new Delivery() {
                @Override
                public boolean offer(CableMessage message) {
                    dispatch.accept(message.text());
                    return true; // never behind: each receiver bounds what it holds
                }

                @Override
                public void discard() {
                }

                @Override
                public int limit() {
                    return Integer.MAX_VALUE;
                }
            });
        }
        return subscription.confirmed().toCompletableFuture();
    }
}
