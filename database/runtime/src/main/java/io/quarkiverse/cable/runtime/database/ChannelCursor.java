package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

import io.quarkiverse.cable.StreamPosition;

/**
 * A channel's position for a page cursor: its row of {@code cable_channels}, read with a plain (non-locking) SELECT on
 * the caller's connection, so that it comes from the same snapshot as the rest of the caller's transaction.
 * <p>
 * Why it is exact: the row's {@code last_position} is written by the same transaction that stores the channel's
 * messages (and, for a broadcast joined to the application's transaction, its data), and writers take the lock row
 * before they write, so the row's versions are committed in position order. A snapshot that sees the version with
 * position P sees every transaction that wrote positions 1..P and none that wrote a later one; a transaction that
 * renders data from the same snapshot sees exactly the data of those broadcasts. A locking read ({@code FOR UPDATE})
 * would read the newest committed version instead, outside the snapshot: it is deliberately not used.
 */
final class ChannelCursor {

    private final SqlDialect sql;

    public ChannelCursor(SqlDialect sql) {
        this.sql = sql;
    }

    public Optional<StreamPosition> read(Connection connection, String channel, long channelHash)
            throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(sql.selectChannelState())) {
            select.setLong(1, channelHash);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next() || !rows.getString(1).equals(channel)) {
                    // No row (or a hash shared with another channel's name): no message of this channel is stored.
                    return Optional.empty();
                }
                return Optional.of(new StreamPosition(rows.getString(2), rows.getLong(3)));
            }
        }
    }
}
