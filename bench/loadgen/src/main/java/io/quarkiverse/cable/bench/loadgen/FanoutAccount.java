package io.quarkiverse.cable.bench.loadgen;

import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * One fan-out subscriber's bookkeeping, as the k6 {@code fanoutSubscriber} loop does it: every delivery is checked,
 * counted once, and compared with the highest sequence seen so far; the completion marker turns the sequences never
 * seen into gaps. Numbers are read with JavaScript's {@code Number()} rules so the same messages count as invalid.
 * Not thread safe: it belongs to one virtual user.
 */
final class FanoutAccount {

    /**
     * Sequences below this are kept in a bit set (a publisher sends 0..N-1, so it stays small); anything above, which
     * only a broken server would deliver, goes to a hash set instead of growing the bit set to its size.
     */
    private static final long DENSE_LIMIT = 1L << 24;

    private final Metrics metrics;
    private final EpochClock clock;
    private final BitSet seen = new BitSet();
    private final Set<Long> seenSparse = new HashSet<>();
    private long highest = -1;

    FanoutAccount(Metrics metrics, EpochClock clock) {
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * Counts one non-null delivery.
     *
     * @return true for the completion marker, after which the subscriber stops
     */
    boolean accept(Object delivery) {
        if (!(delivery instanceof JsonObject message)) {
            metrics.invalidMessages.increment();
            return false;
        }
        if (truthy(message.getValue("complete"))) {
            long missing = missingBelow(number(message, "expected_messages"));
            if (missing > 0) {
                metrics.fanoutGaps.add(missing);
            }
            metrics.fanoutSubscribersCompleted.increment();
            return true;
        }
        double sequence = number(message, "sequence");
        double sentAt = number(message, "sent_at");
        boolean integer = sequence == Math.rint(sequence) && !Double.isInfinite(sequence); // NaN fails too
        if (!integer || sequence < 0 || !Double.isFinite(sentAt)) {
            metrics.invalidMessages.increment();
            return false;
        }
        long seq = (long) sequence;
        if (!markSeen(seq)) {
            metrics.fanoutDuplicates.increment();
            return false;
        }
        if (seq < highest) {
            metrics.fanoutOutOfOrder.increment();
        }
        highest = Math.max(highest, seq);
        metrics.delivered(System.nanoTime(), clock.nowMillis() - sentAt);
        return false;
    }

    /** @return false if the sequence had been seen already */
    private boolean markSeen(long seq) {
        if (seq < DENSE_LIMIT) {
            boolean fresh = !seen.get((int) seq);
            seen.set((int) seq);
            return fresh;
        }
        return seenSparse.add(seq);
    }

    /** Sequences 0 .. expected-1 never seen; the k6 loop runs {@code sequence < expected}, so NaN gives none. */
    private long missingBelow(double expected) {
        if (!(expected > 0)) {
            return 0;
        }
        long end = (long) Math.ceil(expected);
        long missing = 0;
        for (long seq = 0; seq < end; seq++) {
            boolean present = seq < DENSE_LIMIT ? seen.get((int) seq) : seenSparse.contains(seq);
            if (!present) {
                missing++;
            }
        }
        return missing;
    }

    /** JavaScript's {@code Number(message[key])}: absent is NaN, null 0, booleans 1/0, strings parsed. */
    static double number(JsonObject message, String key) {
        if (!message.containsKey(key)) {
            return Double.NaN;
        }
        Object value = message.getValue(key);
        if (value == null) {
            return 0;
        }
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (value instanceof String s) {
            String trimmed = s.strip();
            if (trimmed.isEmpty()) {
                return 0;
            }
            try {
                return Double.parseDouble(trimmed);
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
        return Double.NaN; // objects and arrays; Number([7]) would be 7, but no publisher sends that
    }

    /** JavaScript truthiness of a JSON value. */
    static boolean truthy(Object value) {
        if (value == null) {
            return false;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof Number n) {
            double d = n.doubleValue();
            return d != 0 && !Double.isNaN(d);
        }
        if (value instanceof String s) {
            return !s.isEmpty();
        }
        return value instanceof JsonObject || value instanceof JsonArray;
    }
}
