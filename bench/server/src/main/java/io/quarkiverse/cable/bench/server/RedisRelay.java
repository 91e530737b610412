package io.quarkiverse.cable.bench.server;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.Cable;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.pubsub.PubSubCommands;
import io.quarkus.runtime.ShutdownEvent;

/**
 * The baseline of Rails' Redis adapter: PUBLISH to Redis, and one pattern subscription that hands every message
 * back to this process's subscribers through the memory cable. Redis is the cross-process hop; the local fan-out is
 * the same code as for every other relay.
 * <p>
 * A lost subscription is renewed with backoff, as Rails' adapter reconnects; messages published meanwhile are lost
 * (Redis keeps nothing for absent subscribers).
 */
@Singleton
@Typed(RedisRelay.class)
public class RedisRelay implements Relay {

    private static final Logger LOG = Logger.getLogger(RedisRelay.class);

    /** The two stream families the channels publish to. */
    private static final List<String> PATTERNS = List.of("broadcast:*", "fanout:*");

    private final RelayCounters counters = new RelayCounters();
    private final AtomicBoolean subscribed = new AtomicBoolean();
    private final CountDownLatch stopping = new CountDownLatch(1);
    private PubSubCommands<String> pubSub;

    @Inject
    RedisDataSource redis;

    @Inject
    Cable cable;

    @PostConstruct
    void start() {
        pubSub = redis.pubsub(String.class);
        // Returns once Redis confirmed the subscription, before the application reports ready, so no publish can
        // precede it.
        try {
            subscribe();
        } catch (RuntimeException e) {
            throw new IllegalStateException("redis relay: cannot subscribe through quarkus.redis.hosts: " + e, e);
        }
        LOG.infof("redis relay: subscribed to %s", PATTERNS);
    }

    /** Before the Redis client closes its connections, which ends the subscription on purpose. */
    void stop(@Observes(notifyObserver = Reception.IF_EXISTS) ShutdownEvent event) {
        stopping.countDown();
    }

    @Override
    public void publish(String stream, String jsonPayload) {
        // Waits for Redis' reply, as Rails' adapter does; that keeps one publisher's messages in order.
        try {
            pubSub.publish(stream, jsonPayload);
            counters.published();
        } catch (RuntimeException e) {
            counters.failed();
            LOG.warnf("redis relay: PUBLISH to %s failed: %s", stream, e.toString());
        }
    }

    private void subscribe() {
        pubSub.subscribeToPatterns(PATTERNS, this::deliverLocally, this::subscriptionLost,
                failure -> subscriptionLost());
        subscribed.set(true);
    }

    private void deliverLocally(String stream, String jsonPayload) {
        counters.relayedIn();
        cable.broadcast(stream, jsonPayload).whenComplete((done, failure) -> {
            if (failure != null) {
                counters.failed();
            }
        });
    }

    /** Called on an event loop when the subscription's connection ends or fails (possibly both: acts once). */
    private void subscriptionLost() {
        if (stopping.getCount() == 0 || !subscribed.compareAndSet(true, false)) {
            return;
        }
        LOG.warnf("redis relay: the subscription to %s was lost; resubscribing", PATTERNS);
        Thread.ofVirtual().name("redis-relay-resubscribe").start(this::resubscribe);
    }

    private void resubscribe() {
        Backoff backoff = new Backoff();
        try {
            while (!stopping.await(backoff.next().toMillis(), TimeUnit.MILLISECONDS)) {
                try {
                    subscribe();
                    LOG.infof("redis relay: subscribed to %s again", PATTERNS);
                    return;
                } catch (RuntimeException e) {
                    LOG.debugf("redis relay: resubscribing failed: %s", e);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean ready() {
        return subscribed.get();
    }

    @Override
    public RelayCounters counters() {
        return counters;
    }
}
