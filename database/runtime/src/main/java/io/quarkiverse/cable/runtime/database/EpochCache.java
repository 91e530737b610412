package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.quarkiverse.cable.spi.PolledMessage;

/**
 * The epoch of each channel this node has polled, so that a polled message carries its stream position's epoch
 * without a join on every poll.
 * <p>
 * A channel's epoch only changes when its {@code cable_channels} row is recreated, and then its positions start
 * again at 1. So a cached epoch is trusted only while positions continue it: a row whose position is not the next
 * one after the last seen (position 1, a step back, or a jump after the node stopped polling the channel) reloads
 * the epochs of its batch with one IN query. Used by the poller thread only.
 */
final class EpochCache {

    /** Past this many channels the cache starts again, so it stays bounded with channel churn. */
    private static final int MAX_CHANNELS = 100_000;

    private final SqlDialect sql;
    private final Map<Long, Known> known = new HashMap<>();

    EpochCache(SqlDialect sql) {
        this.sql = sql;
    }

    /** Turns polled rows (in id order) into messages with their epochs, loading the epochs it cannot trust. */
    List<PolledMessage> resolve(Connection connection, List<StoredRow> rows) throws SQLException {
        List<Long> reload = null;
        Map<Long, Long> expected = new HashMap<>();
        for (StoredRow row : rows) {
            Long next = expected.get(row.channelHash());
            if (next == null) {
                Known cached = known.get(row.channelHash());
                next = cached == null ? -1 : cached.lastPosition + 1;
            }
            if (next != row.position()) {
                if (reload == null) {
                    reload = new ArrayList<>();
                }
                if (!reload.contains(row.channelHash())) {
                    reload.add(row.channelHash());
                }
            }
            expected.put(row.channelHash(), row.position() + 1);
        }
        if (reload != null) {
            load(connection, reload);
        }
        List<PolledMessage> messages = new ArrayList<>(rows.size());
        for (StoredRow row : rows) {
            Known cached = known.get(row.channelHash());
            String epoch = cached == null ? null : cached.epoch;
            if (cached != null) {
                cached.lastPosition = row.position();
            }
            messages.add(row.polled(epoch));
        }
        return messages;
    }

    void forget() {
        known.clear();
    }

    private void load(Connection connection, List<Long> hashes) throws SQLException {
        if (known.size() + hashes.size() > MAX_CHANNELS) {
            known.clear();
        }
        long[] all = hashes.stream().mapToLong(Long::longValue).toArray();
        for (int from = 0; from < all.length; from += InList.MAX) {
            int to = Math.min(all.length, from + InList.MAX);
            try (PreparedStatement select = connection.prepareStatement(sql.selectEpochs(InList.bucket(to - from)))) {
                InList.bind(select, 1, all, from, to);
                try (ResultSet result = select.executeQuery()) {
                    while (result.next()) {
                        // lastPosition is set from the rows right after; 0 until then.
                        known.put(result.getLong(1), new Known(result.getString(2)));
                    }
                }
            }
        }
    }

    private static final class Known {
        final String epoch;
        long lastPosition;

        Known(String epoch) {
            this.epoch = epoch;
        }
    }
}
