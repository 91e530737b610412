package io.quarkiverse.cable;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The method of a {@link CableChannel} called when a client subscribes, in place of
 * {@link ChannelHandler#subscribed}: {@code consumer.subscriptions.create({channel: "ChatChannel", room: "lobby"})}
 * calls {@code @OnSubscribe void join(@ChannelParam("room") String room, ChannelSubscription subscription)}.
 * <p>
 * Its parameters, in any order, are bound by the server:
 * <ul>
 * <li>{@link ChannelParam @ChannelParam("name") T}: the identifier's parameter, decoded to {@code T} with the
 * application's Jackson {@code ObjectMapper} ({@code String}, {@code int}, {@code long}, {@code boolean},
 * {@code UUID}, an enum, a record...); {@code Optional<T>} when the client may leave it out;</li>
 * <li>{@link ChannelSubscription}: the subscription, to stream, transmit, join presence or reject;</li>
 * <li>{@code io.quarkus.security.identity.SecurityIdentity}: the identity the connection was opened with (anonymous
 * when nothing authenticated it).</li>
 * </ul>
 * A required parameter the identifier lacks, or one that does not decode, rejects the subscription with a reason
 * ({@code reject_subscription} with a {@code reason} field) without calling the method. The method rejects the
 * subscription with {@link ChannelSubscription#reject(String)} or by throwing {@link SubscriptionRejected}; whatever
 * else it throws rejects it too, without a reason, and is logged as the application's failure.
 * <p>
 * One per channel, neither static nor private, returning {@code void}. A channel that also implements
 * {@link ChannelHandler} must not override {@link ChannelHandler#subscribed} as well: the build fails. Runs on a
 * virtual thread, in order with the connection's other commands, in a request context with the connection's identity,
 * like every channel callback; checked and generated at build time (no reflection).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface OnSubscribe {
}
