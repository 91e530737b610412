package io.quarkiverse.cable.it.todo;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;

/** {@code {"channel":"TodoChannel"}} streams the to-do list's changes ({@link TodoResource#CHANNEL}). */
@CableChannel("TodoChannel")
public class TodoChannel implements ChannelHandler {

    @Override
    public void subscribed(ChannelSubscription subscription) {
        subscription.streamFrom(TodoResource.CHANNEL);
    }
}
