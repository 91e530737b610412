package io.quarkiverse.cable.bench.loadgen;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Violations of the recovery guarantee seen by any client: counted, the first few kept to say what went wrong. */
final class ViolationLog {

    private static final int KEPT = 10;

    private final AtomicLong count = new AtomicLong();
    private final List<String> first = new ArrayList<>();

    void add(String what) {
        count.incrementAndGet();
        synchronized (first) {
            if (first.size() < KEPT) {
                first.add(what);
            }
        }
    }

    long count() {
        return count.get();
    }

    List<String> first() {
        synchronized (first) {
            return List.copyOf(first);
        }
    }
}
