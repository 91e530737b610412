package io.quarkiverse.cable.spi;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What health checks, metrics and the Dev UI read of a {@link Transport}, apart from its data path. A transport that
 * stores nothing keeps the defaults ({@link #NONE}), which answer "nothing stored, no workers".
 */
public interface TransportStatus {

    /** Nothing stored, nothing to wake, no workers. */
    TransportStatus NONE = new TransportStatus() {
    };

    /**
     * The name of the store that holds the messages, as operators know it (a database adapter's datasource name);
     * empty when the transport stores nothing, and then nothing stored is counted or probed.
     */
    default Optional<String> store() {
        return Optional.empty();
    }

    /** How other nodes' commits wake this node's poller; {@link Wakeup#NONE} when nothing needs waking. */
    default Wakeup wakeup() {
        return Wakeup.NONE;
    }

    /** The background workers whose death liveness reports; none when the transport runs no thread. */
    default List<Worker> workers() {
        return List.of();
    }

    /** Where the transport's writer and poller stand now, from memory; empty when it has neither. */
    default Optional<Progress> progress() {
        return Optional.empty();
    }

    /**
     * Makes the poller also read the newest committed id, so {@link Progress#horizon()} is exact even when the newest
     * rows belong to channels nobody here subscribes to. Asked for by health and metrics only.
     */
    default void trackHorizon() {
    }

    /** Reads the newest id and the messages older than {@code cutoff} (up to {@code cap}); empty when none stored. */
    default Optional<StoredCounts> count(Instant cutoff, long cap) throws StoreException {
        return Optional.empty();
    }

    /** The newest {@code limit} stored messages, newest first; none when nothing is stored. */
    default List<PolledMessage> recent(int limit) throws StoreException {
        return List.of();
    }

    /**
     * The newest {@code limit} stored messages of every channel but those named in {@code except}, newest first. The
     * filter belongs to the read, not to its caller: the cable's own channels can fill the newest rows (every whisper
     * and presence event is a row), so filtering {@link #recent(int)}'s answer afterwards could leave nothing.
     */
    default List<PolledMessage> recent(int limit, Set<String> except) throws StoreException {
        return recent(limit).stream().filter(polled -> !except.contains(polled.message().channel())).toList();
    }

    /**
     * @param cursor the id the poller has read up to
     * @param horizon the id up to which every message of a subscribed channel has been read (see trackHorizon)
     * @param lastPollNanos when the poller last completed a cycle (System.nanoTime)
     * @param writerQueueDepth broadcasts waiting for the writer
     * @param writerOldestQueuedAtNanos when the batch being written was first queued, 0 when the writer is idle
     */
    record Progress(long cursor, long horizon, long lastPollNanos, int writerQueueDepth,
            long writerOldestQueuedAtNanos) {
    }

    /** What the store holds: the newest committed id, and the expired messages counted up to a cap. */
    record StoredCounts(long newestId, long expired) {
    }
}
