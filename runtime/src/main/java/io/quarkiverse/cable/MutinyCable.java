package io.quarkiverse.cable;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The {@link Cable} as Mutiny types, for reactive endpoints: {@code @Inject MutinyCable cable}. Each {@code Uni} is
 * lazy: the broadcast is made when it is subscribed (so it joins the transaction active on the subscribing thread),
 * and it completes when {@link Cable}'s stage would.
 */
public interface MutinyCable {

    /** {@link Cable#broadcast(String, String)} as a {@code Uni}. */
    Uni<Void> broadcast(String channel, String payload);

    /** {@link Cable#broadcast(String, byte[])} as a {@code Uni}. */
    Uni<Void> broadcast(String channel, byte[] payload);

    /** {@link Cable#broadcast(String, Object)} (JSON) as a {@code Uni}. */
    Uni<Void> broadcast(String channel, Object payload);

    /** This API over {@link Cable#withoutTransaction()}. */
    MutinyCable withoutTransaction();

    /**
     * {@link Cable#subscribe(String, CableListener)}: the {@code Uni} emits the subscription once it is confirmed
     * (every broadcast committed from then on reaches the listener).
     */
    Uni<Subscription> subscribe(String channel, CableListener listener);

    /**
     * The messages of {@code channel} committed after the {@code Multi} is subscribed, in channel order. Demand is
     * honoured through a buffer of {@code bufferSize} messages; a consumer that falls further behind ends the stream
     * with {@link CableException.SlowConsumer} (never an unbounded buffer). Cancelling unsubscribes.
     */
    Multi<CableMessage> messages(String channel, int bufferSize);

    /** {@link #messages(String, int)} with a buffer of 1,000 messages. */
    default Multi<CableMessage> messages(String channel) {
        return messages(channel, 1000);
    }

    /** The {@code CompletionStage} API this one wraps. */
    Cable cable();
}
