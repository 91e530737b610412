package io.quarkiverse.cable.runtime.core;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.spi.PresenceEnvelope;

/**
 * This node's reader of {@link IdentityChannels#PRESENCE}: one subscription for the node, handing each event to the
 * listeners of its channel. Like the whispers' reader: a listener costs a set entry, not a subscription of the engine.
 */
final class PresenceEventReader implements PresenceEvents {

    private static final Logger LOG = Logger.getLogger(PresenceEventReader.class);

    private final ConcurrentHashMap<String, Set<Listener>> listeners = new ConcurrentHashMap<>();
    private final ChannelReader reader;

    /** {@code subscribe} subscribes a delivery to the presence channel. */
    PresenceEventReader(Function<Delivery, LocalSubscription> subscribe) {
        this.reader = new SharedChannelReader(subscribe, this::dispatch);
    }

    @Override
    public CompletableFuture<Void> listen(String channel, Listener listener) {
        listeners.computeIfAbsent(channel, ignored -> ConcurrentHashMap.newKeySet()).add(listener);
        return reader.reading();
    }

    @Override
    public void stopListening(String channel, Listener listener) {
        listeners.computeIfPresent(channel, (ignored, set) -> {
            set.remove(listener);
            return set.isEmpty() ? null : set;
        });
    }

    private void dispatch(String text) {
        PresenceEnvelope event = PresenceEnvelope.parse(text);
        Set<Listener> receivers = event == null ? null : listeners.get(event.channel());
        if (receivers == null) {
            return;
        }
        // Checked once here, for channels someone on this node listens to, before any frame is made of it.
        if (!event.wellFormed()) {
            LOG.warnf("Quarkus Cable dropped a row of %s whose event is not a join or leave (%d characters): only the"
                    + " cable writes that channel", IdentityChannels.PRESENCE, event.eventJson().length());
            return;
        }
        receivers.forEach(listener -> listener.changed(event));
    }
}
