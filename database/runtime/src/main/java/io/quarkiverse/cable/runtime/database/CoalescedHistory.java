package io.quarkiverse.cable.runtime.database;

import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

import io.quarkiverse.cable.spi.HistoryRequest;
import io.quarkiverse.cable.spi.HistorySource;
import io.quarkiverse.cable.spi.Replay;
import io.quarkiverse.cable.spi.TransportCounters;

/**
 * A history source read under {@link ReplayAdmission}, with identical concurrent reads served by one: a reconnect
 * storm of one channel from one position is one read, not one per client. Reads are identical when they ask for the
 * same channel, the same request (position, epoch, since) and the same starting line; subscriptions started in the
 * same poll cycle share their starting line, so a storm of reconnects is coalesced whenever no message was committed
 * between them. A read joins another only while that one is in flight (nothing is cached), so the answer is always
 * as fresh as the reader's own would be. Joined reads need no share of the pool.
 */
final class CoalescedHistory implements HistorySource {

    private record Key(String channel, long channelHash, HistoryRequest request, long startingLine) {
    }

    private final HistorySource source;
    private final ReplayAdmission admission;
    private final TransportCounters stats;
    private final ConcurrentHashMap<Key, CompletableFuture<Replay>> inFlight = new ConcurrentHashMap<>();

    public CoalescedHistory(HistorySource source, ReplayLimits limits, TransportCounters stats) {
        this.source = source;
        this.admission = new ReplayAdmission(limits);
        this.stats = stats;
    }

    @Override
    public Replay replay(String channel, long channelHash, HistoryRequest request, long startingLine)
            throws Exception {
        Key key = new Key(channel, channelHash, request, startingLine);
        CompletableFuture<Replay> mine = new CompletableFuture<>();
        CompletableFuture<Replay> shared = inFlight.putIfAbsent(key, mine);
        if (shared != null) {
            stats.replayCoalesced();
            return join(shared);
        }
        try {
            admission.acquire(channel, request.asked());
            Replay replay;
            try {
                stats.historyRead();
                replay = source.replay(channel, channelHash, request, startingLine);
            } finally {
                admission.release();
            }
            // Shared by every joined subscriber: nobody may change it.
            replay = new Replay(Collections.unmodifiableList(replay.messages()), replay.position());
            mine.complete(replay);
            return replay;
        } catch (Throwable e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            inFlight.remove(key, mine);
        }
    }

    private static Replay join(CompletableFuture<Replay> shared) throws Exception {
        try {
            return shared.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Reads waiting for a share of the pool (for tests and the metrics). */
    public int waiting() {
        return admission.waiting();
    }
}
