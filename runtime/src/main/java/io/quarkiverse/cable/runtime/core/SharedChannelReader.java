package io.quarkiverse.cable.runtime.core;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

import io.quarkiverse.cable.CableMessage;

/** The engine's {@link ChannelReader}: the subscription is made on first use, again when the cable ended it. */
final class SharedChannelReader implements ChannelReader {

    private final Function<Delivery, LocalSubscription> subscribe;
    private final Consumer<String> dispatch;
    private LocalSubscription subscription;

    /** {@code subscribe} subscribes a delivery to the channel; {@code dispatch} runs on the poller, never blocks. */
    SharedChannelReader(Function<Delivery, LocalSubscription> subscribe, Consumer<String> dispatch) {
        this.subscribe = subscribe;
        this.dispatch = dispatch;
    }

    @Override
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
