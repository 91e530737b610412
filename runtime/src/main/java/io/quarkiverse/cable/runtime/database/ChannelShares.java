package io.quarkiverse.cable.runtime.database;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.quarkiverse.cable.spi.OutgoingMessage;

/**
 * How many broadcasts each channel has in the writer queue, so that one channel cannot take all of it: a flood on one
 * channel then fails its own broadcasts with {@code QueueFull} while other channels' broadcasts still find room. A
 * channel's count goes up when its broadcast enters the queue and down when the writer takes it into a batch.
 * <p>
 * One monitor for the map: a submit already holds the writer's accept lock, and the writer thread releases a whole
 * batch in one call, so the map costs one uncontended lock per broadcast and one per batch.
 */
final class ChannelShares {

    private final int share;
    private final Map<String, int[]> queued = new HashMap<>();

    /** {@code share}: the most broadcasts of one channel in the queue. */
    ChannelShares(int share) {
        this.share = share;
    }

    int share() {
        return share;
    }

    /** Counts one more broadcast of {@code channel}, or returns false when the channel holds its share already. */
    synchronized boolean take(String channel) {
        int[] count = queued.computeIfAbsent(channel, c -> new int[1]);
        if (count[0] >= share) {
            return false;
        }
        count[0]++;
        return true;
    }

    /** Gives back one broadcast of {@code channel} (it did not enter the queue after all). */
    synchronized void release(String channel) {
        giveBack(channel);
    }

    /** Gives back every broadcast of {@code batch} (the writer took them from the queue). */
    synchronized void release(List<OutgoingMessage> batch) {
        for (OutgoingMessage message : batch) {
            giveBack(message.channel());
        }
    }

    private void giveBack(String channel) {
        int[] count = queued.get(channel);
        if (count != null && --count[0] <= 0) {
            queued.remove(channel);
        }
    }
}
