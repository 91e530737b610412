package io.quarkiverse.cable.spi;

/**
 * A subscription handed to {@link Transport#startSubscription}, waiting for its starting line. The adapter calls
 * {@link #startAt} exactly once, where it orders messages (the poller's thread, the memory adapter's lock), so that no
 * message of the channel is dispatched between choosing the line and joining the subscribers; or {@link #end} when it
 * cannot start it (stopped, or a failure). The core implements it.
 */
public interface PendingSubscription {

    String channel();

    /**
     * Joins the subscribers of the channel with {@code newestId} as the starting line (messages at or below it are
     * never delivered to it), then confirms it or runs its history step. Returns false when the subscription was
     * closed while it waited: nothing joined.
     */
    boolean startAt(long newestId);

    /** Ends it without starting: with {@code cause}, or normally when null. */
    void end(Throwable cause);
}
