package io.quarkiverse.cable.runtime.subscribers;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.runtime.delivery.Delivery;

/**
 * One in-JVM subscriber. Its starting line is set once, when the subscription is recorded; messages at or below it
 * are never delivered, so a new subscriber never sees history.
 */
public final class LocalSubscription implements Subscription {

    private static final long NOT_STARTED = Long.MAX_VALUE;

    private final String channel;
    private final long channelHash;
    private final Delivery delivery;
    private final Consumer<LocalSubscription> onClose;
    private final CompletableFuture<Void> confirmed = new CompletableFuture<>();
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private final AtomicBoolean open = new AtomicBoolean(true);
    private volatile long startingLine = NOT_STARTED;

    public LocalSubscription(String channel, long channelHash, Delivery delivery, Consumer<LocalSubscription> onClose) {
        this.channel = channel;
        this.channelHash = channelHash;
        this.onClose = onClose;
        this.delivery = delivery;
    }

    @Override
    public String channel() {
        return channel;
    }

    public long channelHash() {
        return channelHash;
    }

    public boolean isOpen() {
        return open.get();
    }

    /** Records the starting line and confirms. Called by whoever orders messages (poller or memory adapter). */
    public void start(long newestId) {
        startingLine = newestId;
        confirmed.complete(null);
    }

    /**
     * Hands a message to the listener's mailbox. Returns false when the mailbox overflowed and the subscription was
     * closed as a slow consumer.
     */
    public boolean offer(CableMessage message) {
        if (message.id() <= startingLine || !open.get()) {
            return true;
        }
        if (delivery.offer(message)) {
            return true;
        }
        end(new CableException.SlowConsumer(channel, delivery.limit()));
        return false;
    }

    @Override
    public CompletionStage<Void> confirmed() {
        return confirmed;
    }

    @Override
    public CompletionStage<Void> closed() {
        return closed;
    }

    @Override
    public void close() {
        end(null);
    }

    /** Ends the subscription: normally when {@code cause} is null, otherwise with that cause. */
    public void end(Throwable cause) {
        if (!open.compareAndSet(true, false)) {
            return;
        }
        onClose.accept(this);
        delivery.discard();
        if (cause == null) {
            confirmed.cancel(false);
            closed.complete(null);
        } else {
            confirmed.completeExceptionally(cause);
            closed.completeExceptionally(cause);
        }
    }
}
