package io.quarkiverse.cable.runtime.core;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.spi.PresenceEnvelope;

/**
 * This node's presence events by channel, for the listeners of that channel (Action Cable subscriptions in that
 * presence set's channel, {@code CablePresence.events}, SSE streams with presence). It reads
 * {@link IdentityChannels#PRESENCE}: one subscription for the node, handing each event to the listeners of its channel.
 * Like the whispers' reader: a listener costs a set entry, not a subscription of the engine.
 */
public final class PresenceEvents {

    private static final Logger LOG = Logger.getLogger(PresenceEvents.class);

    /** Hears the presence events of the channels it listens to, on the poller: it must not block. */
    public interface Listener {
        void changed(PresenceEnvelope event);
    }

    private final ConcurrentHashMap<String, Set<Listener>> listeners = new ConcurrentHashMap<>();
    private final ChannelReader reader;

    /** {@code subscribe} subscribes a delivery to the presence channel. */
    PresenceEvents(Function<Delivery, LocalSubscription> subscribe) {
        this.reader = new ChannelReader(subscribe, this::dispatch);
    }

    /**
     * {@code listener} hears {@code channel}'s events from now on; completes once this node reads the presence
     * channel (its starting line), so an event committed after that reaches it.
     */
    public CompletableFuture<Void> listen(String channel, Listener listener) {
        listeners.computeIfAbsent(channel, ignored -> ConcurrentHashMap.newKeySet()).add(listener);
        return reader.reading();
    }

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
