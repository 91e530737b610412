package io.quarkiverse.cable.it;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.CableIdentities;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;

/**
 * Rails' {@code stream_for current_user}: {@code {"channel":"InboxChannel"}} streams the connection's own identity
 * channel, which {@link CableIdentities#broadcast} reaches. For the hostile tests it is also a careless channel:
 * {@code "stream"} in the identifier is streamed as given, so only the cable's own guard keeps a client off another
 * identity's channel.
 */
@CableChannel("InboxChannel")
public class InboxChannel implements ChannelHandler {

    @Override
    public void subscribed(ChannelSubscription subscription) {
        Object stream = subscription.params().getValue("stream");
        subscription.streamFrom(stream instanceof String name ? name
                : CableIdentities.channel(subscription.connectionIdentifiers()));
    }
}
