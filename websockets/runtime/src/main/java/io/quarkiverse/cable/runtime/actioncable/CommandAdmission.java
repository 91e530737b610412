package io.quarkiverse.cable.runtime.actioncable;

import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.frontend.RateBucket;

/**
 * What one Action Cable connection may have the server hold or do with its commands: how many wait to be handled
 * and their bytes (they wait on the connection's serial runner, also behind a slow identification), and how fast
 * they may come (a token bucket). One per connection; {@link #admit} runs on the socket's event loop, {@link #done}
 * on the runner.
 */
final class CommandAdmission {

    /** The bounds, from quarkus.cable.limits.*; read once at startup. */
    record Limits(int maxQueued, long maxQueuedBytes, int rate, int burst) {
    }

    private final Limits limits;
    private int queued;
    private long queuedBytes;
    private final RateBucket rate;

    CommandAdmission(Limits limits) {
        this.limits = limits;
        this.rate = new RateBucket(limits.rate(), limits.burst());
    }

    /**
     * Admits one command of {@code bytes}, or says which bound it breaks: {@code COMMAND_RATE} before the queue's
     * bounds, so a client that floods is told it floods.
     */
    synchronized CableStats.Refusal admit(long bytes) {
        if (!rate.hasToken()) {
            return CableStats.Refusal.COMMAND_RATE;
        }
        if (queued >= limits.maxQueued() || queuedBytes + bytes > limits.maxQueuedBytes()) {
            return CableStats.Refusal.COMMAND_QUEUE;
        }
        rate.take();
        queued++;
        queuedBytes += bytes;
        return null;
    }

    /** An admitted command was handled (or dropped). */
    synchronized void done(long bytes) {
        queued--;
        queuedBytes -= bytes;
    }
}
