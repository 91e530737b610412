package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;

/**
 * How one database writes a batch: take the writers' lock (the {@code cable_shards} row), assign ids and channel
 * positions, insert the messages, save the channel positions and the new last id, and record the writer's receipt.
 * Every database does the same steps in the same order (the lock first, so ids and positions follow commit order);
 * they differ in how many round trips the steps take, each made while the lock is held (see the
 * "Performance" docs). The SQL itself is in {@link SqlDialect}.
 */
abstract sealed class BatchWrite permits StepwiseBatchWrite, PostgreSqlBatchWrite, MariaDbBatchWrite {

    /**
     * The writer's receipt for a batch; {@code retry} when an earlier attempt may have committed it. None (null) for
     * a batch written in an application's transaction.
     */
    record Receipt(String writerId, long batchNumber, boolean retry) {
    }

    final SqlDialect sql;

    BatchWrite(SqlDialect sql) {
        this.sql = sql;
    }

    /**
     * Writes the batch inside the caller's transaction and returns the last id assigned, or
     * {@link MessageStore#ALREADY_COMMITTED} when the receipt shows an earlier attempt stored it (the caller then rolls
     * back). With no receipt the batch belongs to an application's transaction, whose snapshot may predate the lock,
     * so positions are read with locking reads.
     */
    abstract long write(Connection connection, BatchLayout batch, LocalDateTime timestamp, Receipt receipt)
            throws SQLException;

    /** Whether the receipt shows the batch stored; read only on a retry, after the lock is taken. */
    final boolean alreadyStored(Connection connection, Receipt receipt) throws SQLException {
        if (receipt == null || !receipt.retry()) {
            return false;
        }
        try (PreparedStatement select = connection.prepareStatement(sql.selectWriterReceipt())) {
            select.setString(1, receipt.writerId());
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() && rows.getLong(1) == receipt.batchNumber();
            }
        }
    }

    /** Reads the positions of the batch's channels, {@link InList#MAX} at a time, starting at {@code from}. */
    final void readPositions(Connection connection, BatchLayout batch, int from, boolean lockingRead)
            throws SQLException {
        long[] hashes = batch.channelHashes();
        for (; from < hashes.length; from += InList.MAX) {
            int to = Math.min(hashes.length, from + InList.MAX);
            int count = InList.bucket(to - from);
            try (PreparedStatement select = connection.prepareStatement(
                    lockingRead ? sql.selectChannelPositionsForUpdate(count) : sql.selectChannelPositions(count))) {
                InList.bind(select, 1, hashes, from, to);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        storedPosition(batch, rows.getLong(1), rows.getLong(2));
                    }
                }
            }
        }
    }

    /** Records a channel's stored last position. */
    static void storedPosition(BatchLayout batch, long hash, long lastPosition) {
        BatchLayout.ChannelPosition channel = batch.channel(hash);
        if (channel != null) {
            channel.lastPosition = lastPosition;
            channel.stored = true;
        }
    }

    /** A message's position once its channel's stored last position is known. */
    static long position(BatchLayout batch, int index) {
        BatchLayout.ChannelPosition channel = batch.channelOf[index];
        return channel.lastPosition + channel.count - batch.later[index];
    }
}
