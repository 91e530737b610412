package io.quarkiverse.cable.examples;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;

// tag::handler-channel[]
@CableChannel("NoticeChannel")
public class NoticeChannel implements ChannelHandler {

    @Override
    public void subscribed(ChannelSubscription subscription) {   // {channel: "NoticeChannel", topic: "billing"}
        String topic = subscription.params().getString("topic");  // read by hand: absent is null
        if (topic == null) {
            subscription.reject("missing topic");                  // reject_subscription, "reason":"missing topic"
            return;
        }
        subscription.streamFrom("notices:" + topic);
    }
}
// end::handler-channel[]
