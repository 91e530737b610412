package io.quarkiverse.cable.spi;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import io.quarkiverse.cable.StreamPosition;

/**
 * What carries broadcasts from the engine to subscribers: the database (every node) or memory (this node). The SPI an
 * adapter implements: the data path (send, subscriptions, history, presence, the transaction hook) and its lifecycle.
 * What observability reads of it is a {@link TransportStatus} of its own.
 */
public interface Transport {

    String adapter();

    /** Accepts a validated broadcast; the future completes once it is stored and ordered. Never blocks. */
    CompletableFuture<Void> send(OutgoingMessage message);

    /**
     * Whether {@link #send} hands the message to this node's subscribers itself, on the caller's thread, before it
     * returns (the memory adapter): then the broadcasting thread's log MDC is carried to the listeners it reaches.
     * False (the database adapter: the poller dispatches what it reads back) spares the copy.
     */
    default boolean dispatchesOnSend() {
        return false;
    }

    /**
     * Queues the subscription until the adapter can give it its starting line: the newest id ordered so far, at a
     * point where no message is being dispatched ({@link PendingSubscription#startAt}). Never blocks.
     */
    void startSubscription(PendingSubscription subscription);

    /**
     * The channel's newest committed position as the caller's transaction sees it (see {@code Cable.position}); empty
     * when the channel has no stored message. May block.
     */
    default Optional<StreamPosition> position(String channel, long channelHash)
            throws StoreException {
        return Optional.empty();
    }

    /** Where recovering subscriptions read what they missed. */
    HistorySource history();

    /** Where this adapter keeps the presence sets; usable once {@link #start()} returned. */
    PresenceStore presence();

    void start();

    /** Stops accepting broadcasts, stores what was accepted, then stops delivering. */
    void stop();

    /**
     * Where broadcasts made inside an application's transaction are written on that transaction's connection; empty
     * when the transport stores nothing (they are then sent after the commit).
     */
    default Optional<TransactionStore> transactionStore() {
        return Optional.empty();
    }

    /** What health checks, metrics and the Dev UI read of this transport; {@link TransportStatus#NONE} by default. */
    default TransportStatus status() {
        return TransportStatus.NONE;
    }
}
