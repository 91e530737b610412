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

    private final Map<Long, CopyOnWriteArrayList<EngineSubscription>> channels = new ConcurrentHashMap<>();
    private long[] hashes = NONE;
    /** Set by every change; the hash array is rebuilt only when the poller next asks, not on each subscribe. */
    private volatile boolean hashesStale;

    void add(EngineSubscription subscription) {
        synchronized (channels) {
            channels.computeIfAbsent(subscription.channelHash(), h -> new CopyOnWriteArrayList<>()).add(subscription);
            hashesStale = true;
        }
    }

    void remove(EngineSubscription subscription) {
        synchronized (channels) {
            CopyOnWriteArrayList<EngineSubscription> subscribers = channels.get(subscription.channelHash());
            if (subscribers != null && subscribers.remove(subscription) && subscribers.isEmpty()) {
                channels.remove(subscription.channelHash());
                hashesStale = true;
            }
        }
    }

    /**
     * Delivers one message to every local subscriber of its channel (the same instance to each: decoded once).
     * Returns how many subscribers it was handed to.
     */
    @Override
    public int dispatch(long channelHash, CableMessage message) {
        CopyOnWriteArrayList<EngineSubscription> subscribers = channels.get(channelHash);
        if (subscribers == null) {
            return 0;
        }
        int delivered = 0;
        for (EngineSubscription subscription : subscribers) {
            // Hashes of different names may collide; the name decides.
            if (subscription.channel().equals(message.channel()) && subscription.offer(message)) {
                delivered++;
            }
        }
        return delivered;
    }

    /** Ends every subscription with {@code cause}; used when the cable stops. */
    @Override
    public void endAll(Throwable cause) {
        List<EngineSubscription> all = new ArrayList<>();
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
        for (CopyOnWriteArrayList<EngineSubscription> subscribers : channels.values()) {
            count += subscribers.size();
        }
        return count;
    }

    /** Subscriber count per channel name, for administration. */
    public Map<String, Integer> subscribersByChannel() {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        for (CopyOnWriteArrayList<EngineSubscription> subscribers : channels.values()) {
            for (EngineSubscription subscription : subscribers) {
                counts.merge(subscription.channel(), 1, Integer::sum);
            }
        }
        return counts;
    }
}
