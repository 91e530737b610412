package io.quarkiverse.cable.bench.server;

import java.util.List;

import jakarta.inject.Inject;

import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.vertx.core.json.JsonObject;

/**
 * The lecture: every subscriber of {@code {"channel":"FanoutChannel","stream":"s"}} streams {@code fanout:s}, and
 * {@code publish} re-broadcasts the publisher's bookkeeping fields to all of them; or the publisher whispers them.
 * The stream is also the subscription's presence set.
 */
@CableChannel("FanoutChannel")
public class FanoutChannel implements ChannelHandler {

    /** The only fields a publish carries on; anything else the client sent (its {@code action}) is dropped. */
    private static final List<String> FIELDS = List.of("sequence", "sent_at", "message", "complete",
            "expected_messages");

    @Inject
    Relay relay;

    @Override
    public void subscribed(ChannelSubscription subscription) {
        String stream = subscription.params().getString("stream");
        if (stream == null || stream.isBlank()) {
            subscription.reject();
            return;
        }
        subscription.streamFrom(streamOf(subscription));
        // The whisper fan-out (loadgen --fanout-via whisper): the same lecture without storing it.
        subscription.whisperTo(streamOf(subscription));
        // The presence bench (loadgen presence-storm): clients join the stream's presence set.
        subscription.presenceIn(streamOf(subscription));
        // Its clients join under ids of the load generator's numbering, not their (random) identities.
        subscription.allowClientChosenPresenceIds();
    }

    @CableAction
    void publish(ChannelSubscription subscription, JsonObject data) {
        JsonObject message = new JsonObject();
        for (String field : FIELDS) {
            if (data.containsKey(field)) {
                message.put(field, data.getValue(field));
            }
        }
        relay.publish(streamOf(subscription), message.encode());
    }

    private static String streamOf(ChannelSubscription subscription) {
        return "fanout:" + subscription.params().getString("stream");
    }
}
