package io.quarkiverse.cable.it.typed;

import java.util.Map;

import jakarta.inject.Inject;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.it.typed.CelsiusJson.Reading;

/**
 * {@code {"channel":"ReadingChannel"}} streams {@link #STREAM}: its {@code record} action takes a {@link Reading},
 * bound from the action's JSON with the application's mapper (so {@code "21.5C"} becomes a {@code Celsius}), and
 * answers what it received; its {@code share} action broadcasts the reading to the others: every subscriber of the
 * stream but the client that performed it.
 */
@CableChannel("ReadingChannel")
public class ReadingChannel implements ChannelHandler {

    public static final String STREAM = "readings";

    @Inject
    Cable cable;

    @Override
    public void subscribed(ChannelSubscription subscription) {
        subscription.streamFrom(STREAM);
    }

    @CableAction("share")
    void share(ChannelSubscription subscription, Reading reading) {
        cable.excluding(subscription.sessionId()).broadcast(STREAM, reading);
    }

    @CableAction("record")
    void record(ChannelSubscription subscription, Reading reading) {
        subscription.transmit(Map.of("sensor", reading.sensor(), "degrees", reading.temperature().degrees()));
    }
}
