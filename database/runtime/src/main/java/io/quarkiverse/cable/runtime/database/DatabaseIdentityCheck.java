package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.spi.Epochs;

/**
 * Run by every batch write once it holds the writers' lock, before it assigns any position: compares the database's
 * identity, read by the statement that took the lock, ({@link SqlDialect#databaseIdentity()}) with the one the cable last wrote
 * under.
 * <p>
 * Why: after a failover to an asynchronous standby, the new primary may lack the newest acknowledged batches. Its
 * channel rows then hold older positions under the same epochs, so the next messages would re-use positions clients
 * have already seen with other payloads, and a client resuming from a lost position would be told its history is
 * complete. When the identity differs, every channel gets a new epoch in this same transaction (so no position is
 * ever written under the old epoch on the new database: resuming clients get {@code epoch_changed}), and the last id
 * the new database had is recorded in {@code identity_since}, where pollers re-anchor their cursors (ids may have gone
 * backwards). Holding the lock makes one writer do it once; the others then find the new identity stored.
 *
 * @param stored the identity recorded in {@code cable_shards} (null before the first write)
 * @param current the database's identity now
 */
record DatabaseIdentityCheck(String stored, String current) {

    private static final Logger LOG = Logger.getLogger(DatabaseIdentityCheck.class);

    /**
     * Reads the two identities from the columns {@code column} and {@code column + 1} of the statement that took the
     * lock (see {@link SqlDialect#identityColumns()}): the check costs no round trip of its own.
     */
    static DatabaseIdentityCheck read(ResultSet lockRow, int column) throws SQLException {
        return new DatabaseIdentityCheck(lockRow.getString(column), lockRow.getString(column + 1));
    }

    /**
     * @param lastId the database's last id before this batch's ids
     */
    void apply(SqlDialect sql, Connection connection, long lastId, LocalDateTime timestamp) throws SQLException {
        if (current == null || current.equals(stored)) {
            return;
        }
        if (stored != null) {
            String epoch = Epochs.newEpoch(timestamp.toEpochSecond(ZoneOffset.UTC));
            int channels;
            try (PreparedStatement renew = connection.prepareStatement(sql.renewAllEpochs())) {
                renew.setString(1, epoch);
                channels = renew.executeUpdate();
            }
            LOG.warnf("Quarkus Cable: the database is not the one it last wrote to (identity %s, now %s: a failover"
                    + " or a restore). Messages acknowledged on the old one after id %d may be lost; every channel"
                    + " (%d) gets the new epoch %s, so clients resuming an older position are told their history is"
                    + " gone instead of being replayed an incomplete one", stored, current, lastId, channels, epoch);
        }
        // The first identity ever seen (a new schema, or one from before identities were recorded) only records it.
        try (PreparedStatement update = connection.prepareStatement(sql.updateIdentity())) {
            update.setString(1, current);
            update.setLong(2, stored == null ? 0 : lastId);
            update.executeUpdate();
        }
    }
}
