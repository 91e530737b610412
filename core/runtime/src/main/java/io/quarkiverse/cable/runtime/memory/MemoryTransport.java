package io.quarkiverse.cable.runtime.memory;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.HistorySettings;
import io.quarkiverse.cable.runtime.core.PresenceSettings;
import io.quarkiverse.cable.spi.ExcludedSession;
import io.quarkiverse.cable.spi.HistorySource;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkiverse.cable.spi.PendingSubscription;
import io.quarkiverse.cable.spi.PresenceStore;
import io.quarkiverse.cable.spi.Subscribers;
import io.quarkiverse.cable.spi.Transport;
import io.quarkiverse.cable.spi.TransportCounters;
import io.quarkiverse.cable.spi.TransportFactory;
import io.quarkiverse.cable.spi.TransportStatus;
import io.quarkiverse.cable.spi.Worker;

/**
 * The {@code memory} adapter: one process only, like Action Cable's async adapter. Ids are assigned and messages
 * dispatched under one lock, which gives the same ordering and starting-line guarantees as the database adapter
 * within this JVM. Dispatch only enqueues to listener mailboxes, so the lock is held briefly.
 */
public final class MemoryTransport implements Transport {

    private final Subscribers subscribers;
    private final TransportCounters stats;
    private final Object lock = new Object();
    private final MemoryHistory history;
    private final MemoryPresence presence;
    private final TransportStatus status = new TransportStatus() {
        @Override
        public List<Worker> workers() {
            return presence.workers();
        }
    };
    private long lastId;
    private volatile boolean running;

    /** The memory adapter: this process only. */
    public static TransportFactory factory(CableRuntimeConfig config) {
        return (subscribers, stats) -> new MemoryTransport(subscribers, stats, HistorySettings.from(config),
                PresenceSettings.from(config));
    }

    public MemoryTransport(Subscribers subscribers, TransportCounters stats, HistorySettings historySettings,
            PresenceSettings presenceSettings) {
        this.subscribers = subscribers;
        this.stats = stats;
        this.history = new MemoryHistory(historySettings.memorySize(), historySettings.window(),
                historySettings.maxReplay());
        this.presence = new MemoryPresence(presenceSettings, this::send);
    }

    @Override
    public PresenceStore presence() {
        return presence;
    }

    /** Nothing stored; the one worker is the presence sets' reaper. */
    @Override
    public TransportStatus status() {
        return status;
    }

    @Override
    public HistorySource history() {
        return (channel, channelHash, request, startingLine) -> {
            synchronized (lock) {
                return history.replay(channel, request, startingLine, System.currentTimeMillis());
            }
        };
    }

    @Override
    public java.util.Optional<io.quarkiverse.cable.StreamPosition> position(String channel, long channelHash) {
        synchronized (lock) {
            return history.position(channel);
        }
    }

    @Override
    public String adapter() {
        return "memory";
    }

    @Override
    public CompletableFuture<Void> send(OutgoingMessage message) {
        synchronized (lock) {
            if (!running) {
                return CompletableFuture.failedFuture(new CableException.Stopped());
            }
            ExcludedSession.Stored stored = ExcludedSession.read(message.payload(), message.binary());
            CableMessage delivered = history.append(++lastId, message.channel(), stored.payload(), message.binary(),
                    System.currentTimeMillis());
            stats.committedInMemory();
            stats.delivered(subscribers.dispatch(message.channelHash(), delivered, stored.session()));
        }
        return CompletableFuture.completedFuture(null);
    }

    /** Dispatched under the lock, on the broadcasting thread. */
    @Override
    public boolean dispatchesOnSend() {
        return true;
    }

    @Override
    public void startSubscription(PendingSubscription subscription) {
        synchronized (lock) {
            if (!running) {
                subscription.end(new CableException.Stopped());
                return;
            }
            subscription.startAt(lastId);
        }
    }

    @Override
    public void start() {
        running = true;
        presence.start("memory");
    }

    @Override
    public void stop() {
        presence.stop();
        synchronized (lock) {
            running = false;
        }
        subscribers.endAll(new CableException.Stopped());
    }
}
