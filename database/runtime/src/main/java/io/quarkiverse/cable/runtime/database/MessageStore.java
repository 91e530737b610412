package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import javax.sql.DataSource;

import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkiverse.cable.spi.PolledMessage;

/**
 * The JDBC operations of the data path: write a batch, poll after a cursor, trim. Plain JDBC on connections borrowed
 * from the pool for one operation each; the SQL comes from the {@link SqlDialect}.
 */
public final class MessageStore {

    private final DataSource dataSource;
    private final SqlDialect sql;
    private final EpochCache epochs;
    private final BatchWrite batchWrite;

    public MessageStore(DataSource dataSource, SqlDialect sql) {
        this(dataSource, sql, Optional.empty());
    }

    /**
     * @param ring the payload of a doorbell notification that every batch's transaction queues (PostgreSQL sends it
     *        with the commit), or empty for batches that ring nothing
     */
    public MessageStore(DataSource dataSource, SqlDialect sql, Optional<String> ring) {
        this.dataSource = dataSource;
        this.sql = sql;
        this.epochs = new EpochCache(sql);
        this.batchWrite = ring.map(sql::ringingBatchWrite).orElseGet(sql::batchWrite);
    }

    public DataSource dataSource() {
        return dataSource;
    }

    public Connection connection() throws SQLException {
        return dataSource.getConnection();
    }

    /** The id of the newest committed message (0 when none was ever written). Never blocks on writers. */
    public long newestId(Connection connection) throws SQLException {
        return shardLastId(connection, sql.newestId());
    }

    /**
     * The database identity writers last recorded (null before any write) and the last id the database had when they
     * first saw it (a change means ids may have gone backwards, see {@link DatabaseIdentityCheck}), and the last id.
     */
    public record IdentityState(String identity, long since, long lastId) {
    }

    public IdentityState identityState(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql.selectIdentityState());
                ResultSet rows = statement.executeQuery()) {
            if (!rows.next()) {
                throw new SQLException("cable_shards has no row for shard 0: the cable schema is incomplete");
            }
            return new IdentityState(rows.getString(1), rows.getLong(2), rows.getLong(3));
        }
    }

    /** Forgets the cached epochs of polled channels: after an identity change every channel has a new one. */
    public void forgetEpochs() {
        epochs.forget();
    }

    /** The most channels {@link #poll} filters by in SQL; with more, pass null and filter after reading. */
    public int maxFilteredChannels() {
        return sql.maxFilteredChannels();
    }

    /**
     * Writes a batch inside the caller's transaction (auto-commit off) with its receipt ({@code writerId},
     * {@code batchNumber}), and returns the last id assigned.
     * <p>
     * The shard row is locked first and stays locked until the caller commits or rolls back. Every writer on every
     * node takes the same lock, so ids are assigned in the order transactions commit: a poller reading
     * {@code id > cursor} can never see a higher id before a lower one. Per-channel positions are assigned under the
     * same lock, so they are gapless and in commit order too.
     * <p>
     * When a commit's acknowledgement is lost (the connection dies between COMMIT and its reply), the writer cannot
     * tell whether the batch was stored. On a retry it passes {@code retry}: the receipt is then checked after the
     * shard lock is taken (so the earlier attempt has either committed or rolled back by then), and a batch already
     * stored is not written again. Returns {@link #ALREADY_COMMITTED} in that case.
     */
    public long writeWithReceipt(Connection connection, List<OutgoingMessage> batch, Instant now, String writerId,
            long batchNumber, boolean retry) throws SQLException {
        return batchWrite.write(connection, new BatchLayout(batch), LocalDateTime.ofInstant(now, ZoneOffset.UTC),
                new BatchWrite.Receipt(writerId, batchNumber, retry));
    }

    /** Whether a failed write was the database refusing a row's data (see {@link SqlDialect#rejectsRow}). */
    public boolean rejectsRow(SQLException failure) {
        return sql.rejectsRow(failure);
    }

    /** Whether a failed write lost a conflict and rolled back whole (see {@link SqlDialect#lostConflict}). */
    public boolean lostConflict(SQLException failure) {
        return sql.lostConflict(failure);
    }

    /** Stops an overrunning COMMIT from another thread (see {@link SqlDialect#cancelCommit}). */
    public void cancelCommit(Connection connection) throws SQLException {
        sql.cancelCommit(connection);
    }

    /** {@link #writeWithReceipt} found the batch already stored by an earlier attempt. */
    public static final long ALREADY_COMMITTED = -1;

    /** Deletes the receipts of writers idle since before {@code cutoff} (writers of stopped nodes). */
    public int forgetIdleWriters(Connection connection, Instant cutoff) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(sql.deleteIdleWriters())) {
            delete.setObject(1, LocalDateTime.ofInstant(cutoff, ZoneOffset.UTC));
            return delete.executeUpdate();
        }
    }

    /**
     * Writes a batch inside an application's transaction (on its enlisted connection) and returns the last id
     * assigned. Takes the shard lock, held until that transaction ends, like the writer's batches. The transaction's
     * snapshot may predate the lock (MariaDB and MySQL at REPEATABLE READ), so the channel positions are read with a
     * locking read, which sees the newest committed ones whatever the isolation level.
     */
    public long writeInTransaction(Connection connection, List<OutgoingMessage> batch, Instant now)
            throws SQLException {
        return batchWrite.write(connection, new BatchLayout(batch), LocalDateTime.ofInstant(now, ZoneOffset.UTC), null);
    }

    /**
     * Reads up to {@code limit} messages after {@code cursor} in id order, of the given channels, or of all channels
     * when {@code channelHashes} is null.
     */
    public List<PolledMessage> poll(Connection connection, long cursor, long[] channelHashes, int limit)
            throws SQLException {
        boolean filtered = channelHashes != null;
        String query = filtered ? sql.pollChannels(InList.bucket(channelHashes.length)) : sql.pollAll();
        try (PreparedStatement statement = connection.prepareStatement(query)) {
            statement.setLong(1, cursor);
            int next = filtered ? InList.bind(statement, 2, channelHashes, 0, channelHashes.length) : 2;
            statement.setInt(next, limit);
            List<StoredRow> found = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    found.add(StoredRow.read(rows));
                }
            }
            // Only the poller polls, so the epoch cache sees each channel's rows in position order.
            return epochs.resolve(connection, found);
        }
    }

    /** The newest {@code limit} messages of all channels, newest first. */
    public List<PolledMessage> recent(Connection connection, int limit) throws SQLException {
        return recent(connection, limit, Set.of());
    }

    /** The newest {@code limit} messages of every channel not named in {@code except}, newest first. */
    public List<PolledMessage> recent(Connection connection, int limit, Set<String> except)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql.recentMessages(except.size()))) {
            int index = 1;
            // By hash, as the poller reads: exact on every database, where a name comparison would follow the
            // column's collation (case- and trailing-space-insensitive on MariaDB's default).
            for (String channel : except) {
                statement.setLong(index++, ChannelHash.of(channel));
            }
            statement.setInt(index, limit);
            List<PolledMessage> messages = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    // Administration only: no epoch lookup.
                    messages.add(StoredRow.read(rows).polled(null));
                }
            }
            return messages;
        }
    }

    /**
     * How many messages are older than {@code cutoff}, counting at most {@code cap}: cheap enough for every health
     * probe and metrics scrape however large the backlog.
     */
    public long countExpired(Connection connection, Instant cutoff, long cap) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql.countExpiredUpTo())) {
            statement.setObject(1, LocalDateTime.ofInstant(cutoff, ZoneOffset.UTC));
            statement.setLong(2, cap);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /**
     * Deletes up to {@code limit} messages created before {@code cutoff}, in the caller's transaction. Rows another
     * node is trimming at the same time are skipped rather than waited for.
     */
    public int trim(Connection connection, Instant cutoff, int limit) throws SQLException {
        long[] ids;
        try (PreparedStatement select = connection.prepareStatement(sql.selectExpiredForTrim())) {
            select.setObject(1, LocalDateTime.ofInstant(cutoff, ZoneOffset.UTC));
            select.setInt(2, limit);
            ids = ids(select);
        }
        return delete(connection, ids);
    }

    /**
     * Deletes up to {@code limit} messages of one channel created before {@code cutoff}, in the caller's transaction
     * (the live-only channels' short retention, see {@link Trimmer}). Rows another node is deleting are skipped.
     */
    public int trimChannel(Connection connection, long channelHash, Instant cutoff, int limit) throws SQLException {
        long[] ids;
        try (PreparedStatement select = connection.prepareStatement(sql.selectExpiredOfChannel())) {
            select.setLong(1, channelHash);
            select.setObject(2, LocalDateTime.ofInstant(cutoff, ZoneOffset.UTC));
            select.setInt(3, limit);
            ids = ids(select);
        }
        return delete(connection, ids);
    }

    private static long[] ids(PreparedStatement select) throws SQLException {
        List<Long> found = new ArrayList<>();
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                found.add(rows.getLong(1));
            }
        }
        return found.stream().mapToLong(Long::longValue).toArray();
    }

    private int delete(Connection connection, long[] ids) throws SQLException {
        int deleted = 0;
        for (int from = 0; from < ids.length; from += InList.MAX) {
            int to = Math.min(ids.length, from + InList.MAX);
            try (PreparedStatement delete = connection.prepareStatement(sql.deleteMessages(InList.bucket(to - from)))) {
                InList.bind(delete, 1, ids, from, to);
                deleted += delete.executeUpdate();
            }
        }
        return deleted;
    }

    /** Whether any message is older than {@code cutoff}: one index lookup, no transaction, no locks. */
    public boolean hasExpired(Connection connection, Instant cutoff) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql.oldestCreatedAt());
                ResultSet rows = statement.executeQuery()) {
            LocalDateTime oldest = rows.next() ? rows.getObject(1, LocalDateTime.class) : null;
            return oldest != null && oldest.isBefore(LocalDateTime.ofInstant(cutoff, ZoneOffset.UTC));
        }
    }

    /** Runs a query of the shard row's last_id (plain read or locking read). */
    private static long shardLastId(Connection connection, String query) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(query);
                ResultSet rows = statement.executeQuery()) {
            if (!rows.next()) {
                throw new SQLException("cable_shards has no row for shard 0: the cable schema is incomplete");
            }
            return rows.getLong(1);
        }
    }
}
