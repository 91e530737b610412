package io.quarkiverse.cable.bench.server;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** What a relay did since startup, for {@code GET /bench/stats}. */
public final class RelayCounters {

    private final LongAdder published = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder relayedIn = new LongAdder();

    /** A payload was handed to the broker (the cable, Redis or PostgreSQL). */
    void published() {
        published.increment();
    }

    /** A payload was refused before reaching the broker (too large for it). */
    void refused() {
        refused.increment();
    }

    /** A publish, or a hand-off to the local subscribers, failed. */
    void failed() {
        failed.increment();
    }

    /** A message came back from Redis or PostgreSQL and was handed to this process's subscribers. */
    void relayedIn() {
        relayedIn.increment();
    }

    Map<String, Long> snapshot() {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("published", published.sum());
        counts.put("refused", refused.sum());
        counts.put("failed", failed.sum());
        counts.put("relayedIn", relayedIn.sum());
        return counts;
    }
}
