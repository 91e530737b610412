package io.quarkiverse.cable;

import java.util.concurrent.CompletionStage;

/**
 * Cross-process publish/subscribe through the application's database.
 * <p>
 * A broadcast on one node reaches every subscriber of its channel on every node that shares the database, exactly
 * once and in per-channel broadcast order. Inject it with {@code @Inject Cable cable}.
 */
public interface Cable {

    /**
     * Broadcasts a text payload to every subscriber of {@code channel}, on every node.
     * <p>
     * Never blocks: the message is queued for the writer, and the returned stage completes once it is committed (so
     * every subscriber confirmed before that moment will receive it). It fails with a {@link CableException} when the
     * message was not stored: {@link CableException.QueueFull}, {@link CableException.Stopped},
     * {@link CableException.StorageFailed} or {@link CableException.InvalidMessage}; or with
     * {@link CableException.CommitUnknown} when the connection broke during the commit and the outcome could not be
     * learned (the message may then have been stored and delivered). A failure the caller ignores is still logged and
     * counted.
     */
    CompletionStage<Void> broadcast(String channel, String payload);

    /** Broadcasts a binary payload; subscribers see {@link CableMessage#binary()} {@code true}. */
    CompletionStage<Void> broadcast(String channel, byte[] payload);

    /**
     * Subscribes an in-JVM listener to {@code channel}.
     * <p>
     * The subscription's starting line is the newest message id at the time it is recorded;
     * {@link Subscription#confirmed()} completes after that. Every broadcast committed after confirmation is
     * delivered, nothing committed before the starting line is. The listener is called on a virtual thread, one
     * message at a time, in per-channel order.
     */
    Subscription subscribe(String channel, CableListener listener);

    /** Which adapter carries the broadcasts: {@code database} or {@code memory}. */
    String adapter();
}
