package io.quarkiverse.cable;

import java.util.Optional;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The {@link Cable} as Mutiny types, for reactive endpoints: {@code @Inject MutinyCable cable}. Every method of
 * {@link Cable} has its form here. Each {@code Uni} is lazy: the broadcast (subscription, read) is made when it is
 * subscribed (so a broadcast joins the transaction active on the subscribing thread), and it completes when
 * {@link Cable}'s stage would.
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

    /** This API over {@link Cable#excluding(String)}: broadcasts skip client session {@code sessionId}. */
    MutinyCable excluding(String sessionId);

    /**
     * {@link Cable#subscribe(String, CableListener)}: the {@code Uni} emits the subscription once it is confirmed
     * (every broadcast committed from then on reaches the listener).
     */
    Uni<Subscription> subscribe(String channel, CableListener listener);

    /**
     * {@link Cable#subscribe(String, StreamPosition, CableListener)}: replays what was committed after {@code after},
     * then the live messages; the {@code Uni} emits the subscription once the replay is handed to the listener, or
     * fails with {@link CableException.HistoryUnavailable} when that history is gone.
     */
    Uni<Subscription> subscribe(String channel, StreamPosition after, CableListener listener);

    /** {@link Cable#subscribe(String, Optional, CableListener)} (from a page cursor) as a {@code Uni}. */
    Uni<Subscription> subscribe(String channel, Optional<StreamPosition> cursor, CableListener listener);

    /**
     * {@link Cable#position(String)} as a {@code Uni}. The read blocks, so it runs on a worker thread, never on the
     * subscribing event loop; inside a transaction on the cable's datasource, call {@link Cable#position(String)} on
     * the transaction's thread instead (the worker has no transaction).
     */
    Uni<Optional<StreamPosition>> position(String channel);

    /** {@link Cable#adapter()}. */
    default String adapter() {
        return cable().adapter();
    }

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

    /**
     * {@link #messages(String)} with each payload decoded to {@code type} ({@link CableMessage#as(Class)}); a payload
     * that does not decode ends the stream with {@link CableException.InvalidMessage}.
     */
    default <T> Multi<T> messages(String channel, Class<T> type) {
        return messages(channel).map(message -> message.as(type));
    }

    /** The {@code CompletionStage} API this one wraps. */
    Cable cable();
}
