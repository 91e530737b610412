package io.quarkiverse.cable.runtime.core;

import java.util.List;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.Subscription;

/**
 * A front end's handle on one in-JVM subscriber, made by {@link CableEngine#subscribe}. Messages at or below its
 * starting line are never delivered, so a new subscriber never sees history; a recovering subscription confirms and
 * goes live when its front end says so.
 */
public interface LocalSubscription extends Subscription {

    /** The channel's hash, the key the adapters and the subscriber map use. */
    long channelHash();

    /** The newest committed id when the subscription started: the end of a recovering subscription's replay. */
    long startingLine();

    boolean isOpen();

    /** Completes {@link #confirmed()}; for a recovering subscription whose protocol confirms before its history. */
    void confirm();

    /**
     * Takes a recovering subscription live: hands on {@code replay}, runs {@code beforeLive} (a frame that must come
     * between replay and live), then the live messages held while the history was read. Returns false, having ended
     * the subscription as a slow consumer, when the receiver fell too far behind.
     */
    boolean goLive(List<CableMessage> replay, Runnable beforeLive);

    /** Ends the subscription: normally when {@code cause} is null, otherwise with that cause. */
    void end(Throwable cause);
}
