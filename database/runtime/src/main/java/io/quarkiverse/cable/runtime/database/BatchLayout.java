package io.quarkiverse.cable.runtime.database;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.quarkiverse.cable.spi.OutgoingMessage;

/**
 * A batch grouped by channel before it is written: each channel once (in order of first appearance) with how many of
 * the batch's messages it receives, and for each message how many later messages of the batch share its channel. The
 * writers need these to assign positions without reading each row back: a channel's new last position is its old one
 * plus its count, and a message's position is that minus its {@link #later} count.
 */
final class BatchLayout {

    final List<OutgoingMessage> messages;
    final List<ChannelPosition> channels;
    private final Map<Long, ChannelPosition> byHash = new LinkedHashMap<>();
    /** Per message: the channel entry it belongs to. */
    final ChannelPosition[] channelOf;
    /** Per message: how many later messages of the batch go to the same channel. */
    final int[] later;

    BatchLayout(List<OutgoingMessage> messages) {
        this.messages = messages;
        channelOf = new ChannelPosition[messages.size()];
        later = new int[messages.size()];
        for (int i = 0; i < messages.size(); i++) {
            OutgoingMessage message = messages.get(i);
            ChannelPosition channel = byHash.computeIfAbsent(message.channelHash(),
                    hash -> new ChannelPosition(hash, message.channel()));
            channel.count++;
            channelOf[i] = channel;
        }
        for (int i = messages.size() - 1; i >= 0; i--) {
            ChannelPosition channel = channelOf[i];
            later[i] = channel.laterSeen++;
        }
        channels = new ArrayList<>(byHash.values());
    }

    /** The channel entry of a hash, or null when no message of the batch goes there. */
    ChannelPosition channel(long hash) {
        return byHash.get(hash);
    }

    int size() {
        return messages.size();
    }

    long[] channelHashes() {
        long[] hashes = new long[channels.size()];
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = channels.get(i).hash;
        }
        return hashes;
    }

    /**
     * Gives every message its id (consecutive, the last one {@code lastId}) and sets each channel's last message id.
     * Returns the first id.
     */
    long assignIds(long lastId) {
        long firstId = lastId - messages.size() + 1;
        for (int i = 0; i < messages.size(); i++) {
            channelOf[i].lastMessageId = firstId + i;
        }
        return firstId;
    }

    /** A channel's state while a batch is written. */
    static final class ChannelPosition {
        final long hash;
        final String channel;
        /** Messages of the batch for this channel. */
        int count;
        /** Only while the layout is built. */
        int laterSeen;
        /** The channel's last position before the batch (0 when it has no row yet). */
        long lastPosition;
        long lastMessageId;
        /** Whether the channel has a row already. */
        boolean stored;

        ChannelPosition(long hash, String channel) {
            this.hash = hash;
            this.channel = channel;
        }
    }
}
