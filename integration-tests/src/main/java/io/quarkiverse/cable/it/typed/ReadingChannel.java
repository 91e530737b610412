package io.quarkiverse.cable.it.typed;

import java.util.Map;

import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.it.typed.CelsiusJson.Reading;

/**
 * {@code {"channel":"ReadingChannel"}}: its {@code record} action takes a {@link Reading}, bound from the action's
 * JSON with the application's mapper (so {@code "21.5C"} becomes a {@code Celsius}), and answers what it received.
 */
@CableChannel("ReadingChannel")
public class ReadingChannel implements ChannelHandler {

    @CableAction("record")
    void record(ChannelSubscription subscription, Reading reading) {
        subscription.transmit(Map.of("sensor", reading.sensor(), "degrees", reading.temperature().degrees()));
    }
}
