package io.quarkiverse.cable.runtime.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Four statements and the commit: one locking read that takes the lock and reads the last id and the channel
 * positions at once (the shard row joined to the batch's channels), one multi-row INSERT of the messages, one
 * multi-row upsert of the channels, and one UPDATE of the shard row and the writer's receipt together. InnoDB's
 * locking reads see the newest committed rows whatever the transaction's snapshot, so the same statements serve
 * application transactions (without the receipt).
 * <p>
 * A multi-row INSERT is one statement that the server executes at once; a JDBC batch, even sent in one go, is
 * executed row by row. Inserts are split so no statement carries more than {@link #MAX_ROWS} rows or (beyond its
 * first row) {@link #MAX_PAYLOAD_BYTES} of payload, which keeps them under the server's {@code max_allowed_packet}
 * whenever each payload alone fits.
 */
final class MariaDbBatchWrite extends BatchWrite {

    static final int MAX_ROWS = 256;
    static final int MAX_PAYLOAD_BYTES = 1 << 20;

    MariaDbBatchWrite(SqlDialect.MariaDb sql) {
        super(sql);
    }

    private SqlDialect.MariaDb dialect() {
        return (SqlDialect.MariaDb) sql;
    }

    @Override
    long write(Connection connection, BatchLayout batch, LocalDateTime timestamp, Receipt receipt)
            throws SQLException {
        long lastId = lockAndReadPositions(connection, batch);
        if (alreadyStored(connection, receipt)) {
            return MessageStore.ALREADY_COMMITTED;
        }
        lastId += batch.size();
        long firstId = batch.assignIds(lastId);
        insertMessages(connection, batch, firstId, timestamp);
        upsertChannels(connection, batch, timestamp);
        saveShard(connection, lastId, receipt, timestamp);
        return lastId;
    }

    /** The shard row (locked) with the positions of the first {@link InList#MAX} channels; then the rest, if any. */
    private long lockAndReadPositions(Connection connection, BatchLayout batch) throws SQLException {
        long[] hashes = batch.channelHashes();
        int first = Math.min(hashes.length, InList.MAX);
        long lastId;
        try (PreparedStatement lock = connection.prepareStatement(dialect().lockShardWithChannels(InList.bucket(first)))) {
            InList.bind(lock, 1, hashes, 0, first);
            try (ResultSet rows = lock.executeQuery()) {
                if (!rows.next()) {
                    throw new SQLException("cable_shards has no row for shard 0: the cable schema is incomplete");
                }
                lastId = rows.getLong(1);
                do {
                    long hash = rows.getLong(2);
                    if (!rows.wasNull()) {
                        storedPosition(batch, hash, rows.getLong(3));
                    }
                } while (rows.next());
            }
        }
        if (first < hashes.length) {
            readPositions(connection, batch, first, true);
        }
        return lastId;
    }

    private void insertMessages(Connection connection, BatchLayout batch, long firstId, LocalDateTime timestamp)
            throws SQLException {
        int from = 0;
        while (from < batch.size()) {
            int to = from + 1;
            long bytes = batch.messages.get(from).payload().length;
            while (to < batch.size() && to - from < MAX_ROWS) {
                bytes += batch.messages.get(to).payload().length;
                if (bytes > MAX_PAYLOAD_BYTES) {
                    break;
                }
                to++;
            }
            try (PreparedStatement insert = connection.prepareStatement(dialect().insertMessages(to - from))) {
                int p = 1;
                for (int i = from; i < to; i++) {
                    OutgoingMessage message = batch.messages.get(i);
                    insert.setLong(p++, firstId + i);
                    insert.setLong(p++, message.channelHash());
                    insert.setString(p++, message.channel());
                    insert.setBytes(p++, message.payload());
                    insert.setBoolean(p++, message.binary());
                    insert.setLong(p++, position(batch, i));
                    insert.setObject(p++, timestamp);
                }
                insert.executeUpdate();
            }
            from = to;
        }
    }

    private void upsertChannels(Connection connection, BatchLayout batch, LocalDateTime timestamp)
            throws SQLException {
        long epochSecond = timestamp.toEpochSecond(ZoneOffset.UTC);
        for (int from = 0; from < batch.channels.size(); from += MAX_ROWS) {
            int to = Math.min(batch.channels.size(), from + MAX_ROWS);
            try (PreparedStatement upsert = connection.prepareStatement(dialect().upsertChannels(to - from))) {
                int p = 1;
                for (int i = from; i < to; i++) {
                    BatchLayout.ChannelPosition channel = batch.channels.get(i);
                    upsert.setLong(p++, channel.hash);
                    upsert.setString(p++, channel.channel);
                    // Used only when the channel has no row yet (the upsert keeps a stored channel's epoch).
                    upsert.setString(p++, Epochs.newEpoch(epochSecond));
                    upsert.setLong(p++, channel.lastPosition + channel.count);
                    upsert.setLong(p++, channel.lastMessageId);
                    upsert.setObject(p++, timestamp);
                    upsert.setObject(p++, timestamp);
                }
                upsert.executeUpdate();
            }
        }
    }

    /** The new last id, with the receipt in the same statement once the writer has a receipt row. */
    private void saveShard(Connection connection, long lastId, Receipt receipt, LocalDateTime timestamp)
            throws SQLException {
        if (receipt != null) {
            try (PreparedStatement update = connection.prepareStatement(dialect().updateShardAndReceipt())) {
                update.setLong(1, lastId);
                update.setLong(2, receipt.batchNumber());
                update.setObject(3, timestamp);
                update.setString(4, receipt.writerId());
                if (update.executeUpdate() > 0) {
                    return;
                }
            }
            // The writer's first batch: no receipt row to join yet, so nothing was updated.
            try (PreparedStatement insert = connection.prepareStatement(sql.insertWriterReceipt())) {
                insert.setString(1, receipt.writerId());
                insert.setLong(2, receipt.batchNumber());
                insert.setObject(3, timestamp);
                insert.executeUpdate();
            }
        }
        try (PreparedStatement update = connection.prepareStatement(sql.updateShard())) {
            update.setLong(1, lastId);
            update.executeUpdate();
        }
    }
}
