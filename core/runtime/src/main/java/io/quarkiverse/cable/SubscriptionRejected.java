package io.quarkiverse.cable;

/**
 * Thrown by an {@link OnSubscribe} method (or {@link ChannelHandler#subscribed}) to reject the subscription with a
 * reason: the client receives {@code reject_subscription} with a {@code reason} field holding {@link #getMessage()},
 * which Action Cable and AnyCable clients ignore and a client of this server may show. The rejection is logged
 * (rate-limited, as invalid input of cause {@code rejected}). The same as {@link ChannelSubscription#reject(String)}
 * for a method that does not take the subscription.
 */
public class SubscriptionRejected extends RuntimeException {

    /** @param reason what the client is told; keep it short and free of what the client should not learn */
    public SubscriptionRejected(String reason) {
        super(reason, null, false, false);
    }
}
