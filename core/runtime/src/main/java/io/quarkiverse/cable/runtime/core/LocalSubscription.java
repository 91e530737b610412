package io.quarkiverse.cable.runtime.core;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.spi.PendingSubscription;

/**
 * A front end's handle on one in-JVM subscriber, made by {@link CableEngine#subscribe}: what the adapter starts
 * ({@link PendingSubscription}) and what the subscriber map hands messages to. Its starting line is set once, when the
 * subscription is recorded; messages at or below it are never delivered, so a new subscriber never sees history. A
 * recovering subscription confirms and goes live when its front end says so.
 */
public final class LocalSubscription implements Subscription, PendingSubscription {

    private static final long NOT_STARTED = Long.MAX_VALUE;

    private final String channel;
    private final long channelHash;
    private final Delivery delivery;
    private final SubscriberMap subscribers;
    private final CompletableFuture<Void> confirmed = new CompletableFuture<>();
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private final AtomicBoolean open = new AtomicBoolean(true);
    private volatile long startingLine = NOT_STARTED;
    private volatile Consumer<LocalSubscription> onStart;

    LocalSubscription(String channel, long channelHash, Delivery delivery, SubscriberMap subscribers) {
        this.channel = channel;
        this.channelHash = channelHash;
        this.subscribers = subscribers;
        this.delivery = delivery;
    }

    @Override
    public String channel() {
        return channel;
    }

    /** The channel's hash, the key the adapters and the subscriber map use. */
    public long channelHash() {
        return channelHash;
    }

    /** The newest committed id when the subscription started: the end of a recovering subscription's replay. */
    public long startingLine() {
        return startingLine;
    }

    public boolean isOpen() {
        return open.get();
    }

    @Override
    public boolean startAt(long newestId) {
        subscribers.add(this);
        if (!isOpen()) {
            // Closed while it waited: its close() found nothing to remove.
            subscribers.remove(this);
            return false;
        }
        start(newestId);
        return true;
    }

    /**
     * Records the starting line and confirms, or hands over to the start hook when one is set (a recovering
     * subscription confirms after its history step). Runs where the adapter orders messages (poller or memory
     * adapter), which must not be blocked by the hook.
     */
    private void start(long newestId) {
        startingLine = newestId;
        Consumer<LocalSubscription> hook = onStart;
        if (hook == null) {
            confirmed.complete(null);
        } else {
            hook.accept(this);
        }
    }

    /** Sets what runs instead of confirming once the starting line is recorded; before the subscription starts. */
    public void onStart(Consumer<LocalSubscription> hook) {
        this.onStart = hook;
    }

    /** Completes {@link #confirmed()}; for a recovering subscription whose protocol confirms before its history. */
    public void confirm() {
        confirmed.complete(null);
    }

    /**
     * Takes a recovering subscription live: hands on {@code replay}, runs {@code beforeLive} (a frame that must come
     * between replay and live), then the live messages held while the history was read. Returns false, having ended
     * the subscription as a slow consumer, when the receiver fell too far behind.
     */
    public boolean goLive(List<CableMessage> replay, Runnable beforeLive) {
        if (!(delivery instanceof HeldDelivery held)) {
            throw new IllegalStateException("The subscription to '" + channel + "' holds nothing: it was not"
                    + " subscribed with a history request");
        }
        if (held.release(replay, beforeLive)) {
            return true;
        }
        end(new CableException.SlowConsumer(channel, held.limit()));
        return false;
    }

    /** The session this subscription delivers to, for broadcasts "to others"; null for an in-JVM listener. */
    String session() {
        return delivery.session();
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
        subscribers.remove(this);
        delivery.discard();
        // closed first: whoever sees confirmed() fail then also sees the subscription closed.
        if (cause == null) {
            closed.complete(null);
            confirmed.cancel(false);
        } else {
            closed.completeExceptionally(cause);
            confirmed.completeExceptionally(cause);
        }
    }
}
