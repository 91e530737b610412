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
 * One statement per step, in portable SQL: lock the shard row, read the channel positions, insert the messages (a
 * JDBC batch), insert or update the channels, update the shard row, update or insert the receipt. About seven round
 * trips; used for embedded H2, where a round trip is a method call.
 */
final class StepwiseBatchWrite extends BatchWrite {

    StepwiseBatchWrite(SqlDialect sql) {
        super(sql);
    }

    @Override
    long write(Connection connection, BatchLayout batch, LocalDateTime timestamp, Receipt receipt)
            throws SQLException {
        DatabaseIdentityCheck identity;
        long lastId;
        try (PreparedStatement lock = connection.prepareStatement(sql.lockShard());
                ResultSet rows = lock.executeQuery()) {
            if (!rows.next()) {
                throw new SQLException("cable_shards has no row for shard 0: the cable schema is incomplete");
            }
            lastId = rows.getLong(1);
            identity = DatabaseIdentityCheck.read(rows, 2);
        }
        if (alreadyStored(connection, receipt)) {
            return MessageStore.ALREADY_COMMITTED;
        }
        identity.apply(sql, connection, lastId, timestamp);
        readPositions(connection, batch, 0, receipt == null);
        long firstId = batch.assignIds(lastId + batch.size());
        try (PreparedStatement insert = connection.prepareStatement(sql.insertMessage())) {
            for (int i = 0; i < batch.size(); i++) {
                OutgoingMessage message = batch.messages.get(i);
                insert.setLong(1, firstId + i);
                insert.setLong(2, message.channelHash());
                insert.setString(3, message.channel());
                insert.setBytes(4, message.payload());
                insert.setBoolean(5, message.binary());
                insert.setLong(6, position(batch, i));
                insert.setObject(7, timestamp);
                insert.addBatch();
            }
            insert.executeBatch();
        }
        saveChannels(connection, batch, timestamp);
        lastId += batch.size();
        try (PreparedStatement update = connection.prepareStatement(sql.updateShard())) {
            update.setLong(1, lastId);
            update.executeUpdate();
        }
        if (receipt != null) {
            saveReceipt(connection, receipt, timestamp);
        }
        return lastId;
    }

    private void saveChannels(Connection connection, BatchLayout batch, LocalDateTime timestamp) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(sql.insertChannel());
                PreparedStatement update = connection.prepareStatement(sql.updateChannel())) {
            boolean inserts = false;
            boolean updates = false;
            for (BatchLayout.ChannelPosition channel : batch.channels) {
                long lastPosition = channel.lastPosition + channel.count;
                if (channel.stored) {
                    update.setLong(1, lastPosition);
                    update.setLong(2, channel.lastMessageId);
                    update.setObject(3, timestamp);
                    update.setLong(4, channel.hash);
                    update.addBatch();
                    updates = true;
                } else {
                    insert.setLong(1, channel.hash);
                    insert.setString(2, channel.channel);
                    insert.setString(3, Epochs.newEpoch(timestamp.toEpochSecond(ZoneOffset.UTC)));
                    insert.setLong(4, lastPosition);
                    insert.setLong(5, channel.lastMessageId);
                    insert.setObject(6, timestamp);
                    insert.setObject(7, timestamp);
                    insert.addBatch();
                    inserts = true;
                }
            }
            if (inserts) {
                insert.executeBatch();
            }
            if (updates) {
                update.executeBatch();
            }
        }
    }

    private void saveReceipt(Connection connection, Receipt receipt, LocalDateTime timestamp) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(sql.updateWriterReceipt())) {
            update.setLong(1, receipt.batchNumber());
            update.setObject(2, timestamp);
            update.setString(3, receipt.writerId());
            if (update.executeUpdate() == 1) {
                return;
            }
        }
        try (PreparedStatement insert = connection.prepareStatement(sql.insertWriterReceipt())) {
            insert.setString(1, receipt.writerId());
            insert.setLong(2, receipt.batchNumber());
            insert.setObject(3, timestamp);
            insert.executeUpdate();
        }
    }
}
