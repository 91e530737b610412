package io.quarkiverse.cable;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The method of a {@link CableChannel} called when a confirmed (or confirming) subscription ends: the client
 * unsubscribed or its connection closed; its streams are already stopped. In place of
 * {@link ChannelHandler#unsubscribed}, with the parameters {@link OnSubscribe} takes ({@link ChannelParam}, the
 * {@link ChannelSubscription}, the connection's {@code SecurityIdentity}). Not called for a rejected subscription. What
 * it throws is logged as the application's failure.
 * <p>
 * One per channel, neither static nor private, returning {@code void}; a channel that also implements
 * {@link ChannelHandler} must not override {@link ChannelHandler#unsubscribed} as well.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface OnUnsubscribe {
}
