package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import io.quarkiverse.cable.spi.Epochs;
import io.quarkiverse.cable.spi.OutgoingMessage;

/**
 * Four statements and the commit: one locking read that takes the lock and reads the last id and the channel
 * positions at once (the shard row joined to the batch's channels), the messages in one bulk INSERT (or multi-row
 * INSERTs, below), one multi-row upsert of the channels, and one UPDATE of the shard row and the writer's receipt
 * together. InnoDB's locking reads see the newest committed rows whatever the transaction's snapshot, so the same
 * statements serve application transactions (without the receipt).
 * <p>
 * With MariaDB Connector/J the messages go in as one JDBC batch of a one-row INSERT, which the driver sends as one bulk
 * command (COM_STMT_BULK_EXECUTE: the statement prepared on the server, the rows as binary parameters, split by the
 * driver to fit {@code max_allowed_packet}); the server binds each row without parsing SQL. Against multi-row INSERTs
 * it made a 1000-row transaction 7.6-8.3 ms instead of 10.1-12.6 ms (bench/run-throughput.sh,
 * performance-work.adoc#bulk-insert). The
 * driver cannot split one row over packets in a bulk command, so a batch with a payload over
 * {@link #MAX_PAYLOAD_BYTES} takes the multi-row INSERTs; so does every batch with MySQL Connector/J, which sends a JDBC
 * batch row by row unless its URL asks it to rewrite batches. Multi-row INSERTs are split so no statement carries more
 * than {@link #MAX_ROWS} rows or (beyond its first row) {@link #MAX_PAYLOAD_BYTES} of payload, which keeps them under
 * {@code max_allowed_packet} whenever each payload alone fits.
 */
final class MariaDbBatchWrite extends BatchWrite {

    static final int MAX_ROWS = 256;
    static final int MAX_PAYLOAD_BYTES = 1 << 20;

    /** Whether the driver sends a batch as one bulk command: found on the first write, the same for every connection. */
    private volatile Boolean bulkDriver;

    MariaDbBatchWrite(MariaDbDialect sql) {
        super(sql);
    }

    private MariaDbDialect dialect() {
        return (MariaDbDialect) sql;
    }

    @Override
    long write(Connection connection, BatchLayout batch, LocalDateTime timestamp, Receipt receipt)
            throws SQLException {
        Locked locked = lockAndReadPositions(connection, batch);
        long lastId = locked.lastId();
        if (alreadyStored(connection, receipt)) {
            return MessageStore.ALREADY_COMMITTED;
        }
        locked.identity().apply(sql, connection, lastId, timestamp);
        lastId += batch.size();
        long firstId = batch.assignIds(lastId);
        insertMessages(connection, batch, firstId, timestamp);
        upsertChannels(connection, batch, timestamp);
        saveShard(connection, lastId, receipt, timestamp);
        return lastId;
    }

    /** What the locking read found on the shard row. */
    private record Locked(long lastId, DatabaseIdentityCheck identity) {
    }

    /** The shard row (locked) with the positions of the first {@link InList#MAX} channels; then the rest, if any. */
    private Locked lockAndReadPositions(Connection connection, BatchLayout batch) throws SQLException {
        long[] hashes = batch.channelHashes();
        int first = Math.min(hashes.length, InList.MAX);
        long lastId;
        DatabaseIdentityCheck identity;
        try (PreparedStatement lock = connection.prepareStatement(dialect().lockShardWithChannels(InList.bucket(first)))) {
            InList.bind(lock, 1, hashes, 0, first);
            try (ResultSet rows = lock.executeQuery()) {
                if (!rows.next()) {
                    throw new SQLException("cable_shards has no row for shard 0: the cable schema is incomplete");
                }
                lastId = rows.getLong(1);
                identity = DatabaseIdentityCheck.read(rows, 4);
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
        return new Locked(lastId, identity);
    }

    private void insertMessages(Connection connection, BatchLayout batch, long firstId, LocalDateTime timestamp)
            throws SQLException {
        if (bulkDriver(connection) && payloadsFitOnePacket(batch)) {
            try (PreparedStatement insert = connection.prepareStatement(dialect().insertMessages(1))) {
                for (int i = 0; i < batch.size(); i++) {
                    bindMessage(insert, 1, batch, i, firstId, timestamp);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            return;
        }
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
                for (int i = from; i < to; i++) {
                    bindMessage(insert, 1 + (i - from) * 7, batch, i, firstId, timestamp);
                }
                insert.executeUpdate();
            }
            from = to;
        }
    }

    /** The seven columns of message {@code i}, from parameter {@code p}. */
    private void bindMessage(PreparedStatement insert, int p, BatchLayout batch, int i, long firstId,
            LocalDateTime timestamp) throws SQLException {
        OutgoingMessage message = batch.messages.get(i);
        insert.setLong(p, firstId + i);
        insert.setLong(p + 1, message.channelHash());
        insert.setString(p + 2, message.channel());
        insert.setBytes(p + 3, message.payload());
        insert.setBoolean(p + 4, message.binary());
        insert.setLong(p + 5, position(batch, i));
        insert.setObject(p + 6, timestamp);
    }

    private static boolean payloadsFitOnePacket(BatchLayout batch) {
        for (OutgoingMessage message : batch.messages) {
            if (message.payload().length > MAX_PAYLOAD_BYTES) {
                return false;
            }
        }
        return true;
    }

    private boolean bulkDriver(Connection connection) throws SQLException {
        Boolean bulk = bulkDriver;
        if (bulk == null) {
            bulk = connection.getMetaData().getDriverName().startsWith("MariaDB");
            bulkDriver = bulk;
        }
        return bulk;
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
