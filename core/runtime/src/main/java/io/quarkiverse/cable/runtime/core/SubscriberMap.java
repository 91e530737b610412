package io.quarkiverse.cable.runtime.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.spi.Subscribers;

/**
 * Channel hash to local subscribers. The first subscriber of a channel adds it, the last one removes it; the poller
 * reads the set of hashes to restrict its query, and dispatches each message to the subscribers of its channel.
 */
final class SubscriberMap implements Subscribers {

    private static final long[] NONE = new long[0];

    private final Map<Long, CopyOnWriteArrayList<LocalSubscription>> channels = new ConcurrentHashMap<>();
    private long[] hashes = NONE;
    /** Set by every change; the hash array is rebuilt only when the poller next asks, not on each subscribe. */
    private volatile boolean hashesStale;
    /**
     * The cable's own subscriptions per channel name ({@link IdentityChannels#isCableOwned}: the disconnect commands,
     * the whispers, the presence events): every node holds them from startup, so counting them would make an idle
     * node report channels and subscribers nobody asked for. Kept apart (a handful of names, changed under the lock)
     * so the application's figures are the totals minus these, without walking every channel.
     */
    private final Map<String, Integer> cableOwned = new ConcurrentHashMap<>();
    private volatile int cableOwnedSubscribers;

    void add(LocalSubscription subscription) {
        synchronized (channels) {
            channels.computeIfAbsent(subscription.channelHash(), h -> new CopyOnWriteArrayList<>()).add(subscription);
            hashesStale = true;
            if (IdentityChannels.isCableOwned(subscription.channel())) {
                cableOwned.merge(subscription.channel(), 1, Integer::sum);
                cableOwnedSubscribers++;
            }
        }
    }

    void remove(LocalSubscription subscription) {
        synchronized (channels) {
            CopyOnWriteArrayList<LocalSubscription> subscribers = channels.get(subscription.channelHash());
            if (subscribers == null || !subscribers.remove(subscription)) {
                return;
            }
            if (subscribers.isEmpty()) {
                channels.remove(subscription.channelHash());
                hashesStale = true;
            }
            if (IdentityChannels.isCableOwned(subscription.channel())) {
                cableOwned.computeIfPresent(subscription.channel(), (name, count) -> count == 1 ? null : count - 1);
                cableOwnedSubscribers--;
            }
        }
    }

    /**
     * Delivers one message to every local subscriber of its channel (the same instance to each: decoded once).
     * Returns how many subscribers it was handed to.
     */
    @Override
    public int dispatch(long channelHash, CableMessage message, String excludedSession) {
        CopyOnWriteArrayList<LocalSubscription> subscribers = channels.get(channelHash);
        if (subscribers == null) {
            return 0;
        }
        int delivered = 0;
        for (LocalSubscription subscription : subscribers) {
            // Hashes of different names may collide; the name decides. A broadcast "to others" skips its sender.
            if (subscription.channel().equals(message.channel())
                    && (excludedSession == null || !excludedSession.equals(subscription.session()))
                    && subscription.offer(message)) {
                delivered++;
            }
        }
        return delivered;
    }

    /** Ends every subscription with {@code cause}; used when the cable stops. */
    @Override
    public void endAll(Throwable cause) {
        List<LocalSubscription> all = new ArrayList<>();
        channels.values().forEach(all::addAll);
        all.forEach(subscription -> subscription.end(cause));
    }

    /**
     * The hashes of all channels with at least one local subscriber, sorted. Rebuilt lazily: with 10,000 channels and
     * subscription churn, rebuilding on every change would cost more than all the polls.
     */
    @Override
    public long[] channelHashes() {
        if (hashesStale) {
            synchronized (channels) {
                if (hashesStale) {
                    hashes = channels.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
                    hashesStale = false;
                }
            }
        }
        return hashes;
    }

    @Override
    public int channelCount() {
        return channels.size();
    }

    public int subscriberCount() {
        int count = 0;
        for (CopyOnWriteArrayList<LocalSubscription> subscribers : channels.values()) {
            count += subscribers.size();
        }
        return count;
    }

    /**
     * Channels the application subscribes on this node: {@link #channelCount} without the cable's own. Read without
     * the lock, so during a concurrent subscribe it may be off by one for a moment, never below 0.
     */
    public int applicationChannelCount() {
        return Math.max(0, channels.size() - cableOwned.size());
    }

    /** The application's subscriptions on this node: {@link #subscriberCount} without the cable's own. */
    public int applicationSubscriberCount() {
        return Math.max(0, subscriberCount() - cableOwnedSubscribers);
    }

    /** Subscriber count per channel name, for administration. */
    public Map<String, Integer> subscribersByChannel() {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        for (CopyOnWriteArrayList<LocalSubscription> subscribers : channels.values()) {
            for (LocalSubscription subscription : subscribers) {
                counts.merge(subscription.channel(), 1, Integer::sum);
            }
        }
        return counts;
    }
}
