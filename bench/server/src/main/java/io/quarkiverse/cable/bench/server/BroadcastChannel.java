package io.quarkiverse.cable.bench.server;

import jakarta.inject.Inject;

import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.vertx.core.json.JsonObject;

/**
 * Ping-pong: each connection streams its own {@code broadcast:<id>}, and {@code ping} answers through the relay, so
 * every round trip crosses the relay (one broadcast delivered to one socket).
 * <p>
 * Subscribed with {@code "send_only": true} (the cross-node steady load's sender on node A) it streams nothing: its
 * pings answer on the stream the same identity subscribes on node B, and node A, which has nobody to deliver them to,
 * neither reads nor sends the pongs. Each pong is then delivered once, as in the single-node run.
 */
@CableChannel("BroadcastChannel")
public class BroadcastChannel implements ChannelHandler {

    private static final String SEND_ONLY = "send_only";

    @Inject
    Relay relay;

    @Override
    public void subscribed(ChannelSubscription subscription) {
        if (!subscription.params().getBoolean(SEND_ONLY, false)) {
            subscription.streamFrom(stream(subscription));
        }
    }

    @CableAction
    void ping(ChannelSubscription subscription, JsonObject data) {
        Object body = data.getValue("message");
        String pong = new JsonObject().put("message", "pong " + (body == null ? "" : body)).encode();
        relay.publish(stream(subscription), pong);
    }

    private static String stream(ChannelSubscription subscription) {
        return "broadcast:" + subscription.connectionIdentifiers().get(BenchIdentification.ID);
    }
}
