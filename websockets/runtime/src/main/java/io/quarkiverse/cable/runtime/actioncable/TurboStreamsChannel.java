package io.quarkiverse.cable.runtime.actioncable;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.TurboStreams;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.Failure;

/**
 * {@code Turbo::StreamsChannel}, an ordinary channel as in turbo-rails: it streams the stream whose name the client
 * presents signed ({@code signed_stream_name}), and rejects a missing, unsigned or tampered name. It has no actions.
 */
@Singleton
public class TurboStreamsChannel implements ChannelHandler {

    @Inject
    Instance<TurboStreams> turbo;

    @Inject
    CableRuntimeConfig config;

    @Inject
    @Internal
    CableEngine engine;

    @Override
    public void subscribed(ChannelSubscription subscription) {
        String stream = verify(subscription.params().getValue("signed_stream_name"));
        if (stream == null) {
            engine.recordFailure(Failure.INVALID, "turbo-signature", "Action Cable: rejected " + TurboStreams.CHANNEL
                    + " subscription with a missing, unsigned or tampered signed_stream_name");
            subscription.reject();
            return;
        }
        Object cursor = subscription.params().getValue("cable_cursor");
        if (cursor == null) {
            subscription.streamFrom(stream);
            return;
        }
        java.util.Optional<io.quarkiverse.cable.StreamPosition> position;
        try {
            position = io.quarkiverse.cable.StreamPosition.parseCursor(cursor instanceof String text ? text : null);
        } catch (IllegalArgumentException e) {
            engine.recordFailure(Failure.INVALID, "turbo-cursor", "Action Cable: " + TurboStreams.CHANNEL
                    + " subscription with an unreadable cable_cursor, streaming live only");
            subscription.streamFrom(stream);
            return;
        }
        subscription.streamFrom(stream, position);
    }

    /** The stream name of a signed Turbo stream name, or null when it cannot be verified. */
    private String verify(Object signedStreamName) {
        if (!(signedStreamName instanceof String signed) || config.turbo().signingKey().isEmpty()) {
            return null;
        }
        return turbo.get().verify(signed);
    }
}
