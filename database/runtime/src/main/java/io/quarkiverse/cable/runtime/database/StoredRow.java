package io.quarkiverse.cable.runtime.database;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.spi.ExcludedSession;
import io.quarkiverse.cable.spi.PolledMessage;

/** One row of {@code cable_messages} as {@link SqlDialect#MESSAGE_COLUMNS} selects it, before its epoch is known. */
record StoredRow(long id, long channelHash, String channel, byte[] payload, boolean binary, long createdAtMillis,
        long position, String excludedSession) {

    /** Every read of a row goes through here, so the payload never leaves with a session prefix. */
    static StoredRow read(ResultSet rows) throws SQLException {
        LocalDateTime createdAt = rows.getObject(6, LocalDateTime.class);
        boolean binary = rows.getBoolean(5);
        ExcludedSession.Stored stored = ExcludedSession.read(rows.getBytes(4), binary);
        return new StoredRow(rows.getLong(1), rows.getLong(2), rows.getString(3), stored.payload(), binary,
                createdAt == null ? 0 : createdAt.toInstant(ZoneOffset.UTC).toEpochMilli(), rows.getLong(7),
                stored.session());
    }

    CableMessage message(String epoch) {
        return new CableMessage(id, channel, payload, binary, position, epoch);
    }

    PolledMessage polled(String epoch) {
        return new PolledMessage(channelHash, message(epoch), createdAtMillis, excludedSession);
    }
}
