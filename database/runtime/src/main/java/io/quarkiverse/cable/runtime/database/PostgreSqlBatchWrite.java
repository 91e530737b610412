package io.quarkiverse.cable.runtime.database;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import io.quarkiverse.cable.spi.Epochs;
import io.quarkiverse.cable.spi.OutgoingMessage;

/**
 * Two statements and the commit. The first takes the lock and allocates the batch's ids at once (an UPDATE of the
 * shard row returning the new last id), and queues the doorbell's notification when the doorbell rings in the batch
 * transaction. The second inserts every message, upserts every channel and records the
 * receipt: the channels are upserted in a data-modifying CTE that returns their new last positions, and the messages
 * are inserted from arrays (unnest) joined to it, each at its channel's new last position minus the number of later
 * messages of the batch on that channel. Arrays keep the statement text fixed whatever the batch size, so the driver
 * prepares it once per connection.
 * <p>
 * The second statement starts after the lock is held, so in READ COMMITTED it sees every batch committed before; and
 * ON CONFLICT DO UPDATE always works on the newest committed channel row, so an application transaction whose snapshot
 * is older still continues the positions correctly.
 */
final class PostgreSqlBatchWrite extends BatchWrite {

    /** The doorbell payload the first statement notifies with, or null when the batch rings nothing. */
    private final String ring;
    /** Built once: the statement is the same for every batch of this store. */
    private final String allocateIds;

    PostgreSqlBatchWrite(PostgreSqlDialect sql, String ring) {
        super(sql);
        this.ring = ring;
        this.allocateIds = sql.allocateIds(ring != null);
    }

    private PostgreSqlDialect dialect() {
        return (PostgreSqlDialect) sql;
    }

    @Override
    long write(Connection connection, BatchLayout batch, LocalDateTime timestamp, Receipt receipt)
            throws SQLException {
        int size = batch.size();
        long lastId;
        DatabaseIdentityCheck identity;
        try (PreparedStatement allocate = connection.prepareStatement(allocateIds)) {
            allocate.setLong(1, size);
            if (ring != null) {
                allocate.setString(2, ring);
            }
            try (ResultSet rows = allocate.executeQuery()) {
                if (!rows.next()) {
                    throw new SQLException("cable_shards has no row for shard 0: the cable schema is incomplete");
                }
                lastId = rows.getLong(1);
                identity = DatabaseIdentityCheck.read(rows, 2);
            }
        }
        if (alreadyStored(connection, receipt)) {
            return MessageStore.ALREADY_COMMITTED;
        }
        identity.apply(sql, connection, lastId - size, timestamp);
        long firstId = batch.assignIds(lastId);

        int channelCount = batch.channels.size();
        Long[] channelHashes = new Long[channelCount];
        String[] channelNames = new String[channelCount];
        String[] epochs = new String[channelCount];
        Long[] counts = new Long[channelCount];
        Long[] lastMessageIds = new Long[channelCount];
        long epochSecond = timestamp.toEpochSecond(ZoneOffset.UTC);
        for (int i = 0; i < channelCount; i++) {
            BatchLayout.ChannelPosition channel = batch.channels.get(i);
            channelHashes[i] = channel.hash;
            channelNames[i] = channel.channel;
            // Used only when the channel has no row yet (ON CONFLICT keeps a stored channel's epoch).
            epochs[i] = Epochs.newEpoch(epochSecond);
            counts[i] = (long) channel.count;
            lastMessageIds[i] = channel.lastMessageId;
        }
        Long[] ids = new Long[size];
        Long[] hashes = new Long[size];
        String[] channels = new String[size];
        byte[][] payloads = new byte[size][];
        Boolean[] binary = new Boolean[size];
        Integer[] later = new Integer[size];
        for (int i = 0; i < size; i++) {
            OutgoingMessage message = batch.messages.get(i);
            ids[i] = firstId + i;
            hashes[i] = message.channelHash();
            channels[i] = message.channel();
            payloads[i] = message.payload();
            binary[i] = message.binary();
            later[i] = batch.later[i];
        }

        try (PreparedStatement write = connection.prepareStatement(dialect().writeBatch(receipt != null))) {
            int p = 1;
            write.setObject(p++, timestamp);
            p = bind(write, p, connection.createArrayOf("bigint", channelHashes));
            p = bind(write, p, connection.createArrayOf("text", channelNames));
            p = bind(write, p, connection.createArrayOf("text", epochs));
            p = bind(write, p, connection.createArrayOf("bigint", counts));
            p = bind(write, p, connection.createArrayOf("bigint", lastMessageIds));
            if (receipt != null) {
                write.setString(p++, receipt.writerId());
                write.setLong(p++, receipt.batchNumber());
                write.setObject(p++, timestamp);
            }
            write.setObject(p++, timestamp);
            p = bind(write, p, connection.createArrayOf("bigint", ids));
            p = bind(write, p, connection.createArrayOf("bigint", hashes));
            p = bind(write, p, connection.createArrayOf("text", channels));
            p = bind(write, p, connection.createArrayOf("bytea", payloads));
            p = bind(write, p, connection.createArrayOf("boolean", binary));
            bind(write, p, connection.createArrayOf("integer", later));
            int inserted = write.executeUpdate();
            if (inserted != size) {
                // Every message joins its channel's upserted row; anything else is a bug, and must not commit.
                throw new SQLException("Cable inserted " + inserted + " of " + size + " messages of a batch");
            }
        }
        return lastId;
    }

    private static int bind(PreparedStatement statement, int index, Array array) throws SQLException {
        statement.setArray(index, array);
        return index + 1;
    }
}
