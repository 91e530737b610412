package io.quarkiverse.cable.it;

import java.util.Optional;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.CableIdentities;
import io.quarkiverse.cable.ChannelParam;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.OnSubscribe;

/**
 * Rails' {@code stream_for current_user}: {@code {"channel":"InboxChannel"}} streams the connection's own identity
 * channel, which {@link CableIdentities#broadcast} reaches. For the hostile tests it is also a careless channel:
 * {@code "stream"} in the identifier is streamed as given, so only the cable's own guard keeps a client off another
 * identity's channel.
 */
@CableChannel("InboxChannel")
public class InboxChannel {

    @OnSubscribe
    void subscribed(@ChannelParam Optional<String> stream, ChannelSubscription subscription) {
        subscription.streamFrom(stream.orElseGet(() -> CableIdentities.channel(subscription.connectionIdentifiers())));
    }
}
