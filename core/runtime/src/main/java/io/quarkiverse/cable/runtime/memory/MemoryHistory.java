package io.quarkiverse.cable.runtime.memory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import io.quarkiverse.cable.CableException.HistoryUnavailable;
import io.quarkiverse.cable.CableException.HistoryUnavailable.Reason;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.spi.Epochs;
import io.quarkiverse.cable.spi.HistoryRequest;
import io.quarkiverse.cable.spi.Replay;

/**
 * The memory adapter's positions and bounded history: per channel, a position counter and the newest
 * {@code memorySize} messages younger than the window. One epoch per JVM (history does not survive a restart). Not
 * thread-safe: {@link MemoryTransport} calls it under its lock.
 * <p>
 * Position counters are kept for every channel ever broadcast to (a long and a name each): forgetting one would
 * reuse its positions within the epoch.
 */
final class MemoryHistory {

    private final String epoch = Epochs.newEpoch(System.currentTimeMillis() / 1000);
    private final Map<String, ChannelLog> channels = new HashMap<>();
    private final int memorySize;
    private final long windowMillis;
    private final int maxReplay;

    MemoryHistory(int memorySize, Duration window, int maxReplay) {
        this.memorySize = memorySize;
        this.windowMillis = window.toMillis();
        this.maxReplay = maxReplay;
    }

    /** Gives a new message its position and keeps it. */
    CableMessage append(long id, String channel, byte[] payload, boolean binary, long nowMillis) {
        ChannelLog log = channels.computeIfAbsent(channel, name -> new ChannelLog());
        CableMessage message = new CableMessage(id, channel, payload, binary, ++log.position, epoch);
        log.lastId = id;
        if (memorySize > 0) {
            if (log.entries.size() == memorySize) {
                log.entries.removeFirst();
            }
            log.entries.addLast(new Entry(message, nowMillis));
        }
        return message;
    }

    Replay replay(String channel, HistoryRequest request, long startingLine, long nowMillis) {
        ChannelLog log = channels.get(channel);
        StreamPosition asked = request instanceof HistoryRequest.After after ? after.position()
                : new StreamPosition(epoch, 0);
        if (log == null) {
            if (request instanceof HistoryRequest.After) {
                throw new HistoryUnavailable(channel, asked, Reason.UNKNOWN_STREAM, "the channel has no messages");
            }
            return new Replay(List.of(), null);
        }
        if (!epoch.equals(asked.epoch())) {
            throw new HistoryUnavailable(channel, asked, Reason.EPOCH_CHANGED, "the channel's epoch is now " + epoch);
        }
        long cutoff = nowMillis - windowMillis;
        while (!log.entries.isEmpty() && log.entries.peekFirst().createdAtMillis < cutoff) {
            log.entries.removeFirst();
        }
        // P(S): the newest position up to the starting line.
        long newest = log.position;
        if (log.lastId > startingLine) {
            newest = -1;
            for (Entry entry : log.entries) {
                if (entry.message.id() > startingLine) {
                    newest = entry.message.position() - 1;
                    break;
                }
            }
            if (newest < 0) {
                throw new HistoryUnavailable(channel, asked, Reason.TRIMMED,
                        "the messages after the starting line are no longer kept");
            }
        }
        StreamPosition position = new StreamPosition(epoch, newest);
        if (request instanceof HistoryRequest.PositionOnly) {
            return new Replay(List.of(), position);
        }
        long first;
        if (request instanceof HistoryRequest.Since since) {
            long sinceMillis = since.since().toEpochMilli();
            first = newest + 1;
            Entry previous = null;
            for (Entry entry : log.entries) {
                if (entry.message.position() <= newest && entry.createdAtMillis >= sinceMillis) {
                    first = entry.message.position();
                    break;
                }
                previous = entry;
            }
            // Complete only if the message before the first one is still kept (or there is none before it).
            if (first > 1 && (previous == null || previous.message.position() != first - 1)) {
                throw new HistoryUnavailable(channel, asked, Reason.TRIMMED, "position " + (first - 1)
                        + " is no longer kept");
            }
        } else {
            if (asked.offset() > newest) {
                throw new HistoryUnavailable(channel, asked, Reason.OFFSET_BEYOND_NEWEST, "the newest position is "
                        + newest);
            }
            first = asked.offset() + 1;
        }
        long missed = newest - first + 1;
        if (missed > maxReplay) {
            throw new HistoryUnavailable(channel, asked, Reason.TOO_LARGE, missed
                    + " messages were missed, over quarkus.cable.history.max-replay (" + maxReplay + ")");
        }
        if (missed == 0) {
            return new Replay(List.of(), position);
        }
        Entry oldest = log.entries.peekFirst();
        if (oldest == null || oldest.message.position() > first) {
            throw new HistoryUnavailable(channel, asked, Reason.TRIMMED, "position " + first + " is no longer kept");
        }
        List<CableMessage> replay = new ArrayList<>((int) missed);
        for (Iterator<Entry> it = log.entries.iterator(); it.hasNext();) {
            CableMessage message = it.next().message;
            if (message.position() > newest) {
                break;
            }
            if (message.position() >= first) {
                replay.add(message);
            }
        }
        return new Replay(replay, position);
    }

    /** The channel's newest position, or empty when it has no message in this JVM. */
    java.util.Optional<StreamPosition> position(String channel) {
        ChannelLog log = channels.get(channel);
        return log == null ? java.util.Optional.empty() : java.util.Optional.of(new StreamPosition(epoch, log.position));
    }

    private static final class ChannelLog {
        final ArrayDeque<Entry> entries = new ArrayDeque<>();
        long position;
        long lastId;
    }

    private record Entry(CableMessage message, long createdAtMillis) {
    }
}
