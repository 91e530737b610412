package io.quarkiverse.cable.runtime.database;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * All SQL the cable runs, per database. Statements that differ between databases are the only abstract methods;
 * everything else is shared ANSI SQL that H2, PostgreSQL and MariaDB/MySQL all accept.
 */
public abstract sealed class SqlDialect permits H2Dialect, PostgreSqlDialect, MariaDbDialect {

    /** Picks the dialect for a Quarkus {@code db-kind}. */
    public static SqlDialect forDbKind(String dbKind) {
        return switch (dbKind.toLowerCase(Locale.ROOT)) {
            case "h2" -> new H2Dialect();
            case "postgresql", "postgres", "pgsql", "pg" -> new PostgreSqlDialect();
            case "mariadb", "mysql" -> new MariaDbDialect();
            default -> throw new IllegalArgumentException("Quarkus Cable supports the H2, PostgreSQL, MariaDB and MySQL "
                    + "datasource kinds, not '" + dbKind + "'");
        };
    }

    public static boolean supports(String dbKind) {
        try {
            forDbKind(dbKind);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The classpath resource holding this database's idempotent DDL. */
    public abstract String ddlResource();

    /** How this database writes a batch: the statements of {@link MessageStore}'s writes, and their order. */
    abstract BatchWrite batchWrite();

    /** {@link #batchWrite()} whose transaction also queues the doorbell's notification ({@link #ringDoorbell()}). */
    BatchWrite ringingBatchWrite(String ring) {
        throw new IllegalStateException("Ringing the doorbell in the batch transaction needs PostgreSQL");
    }

    /**
     * The most channels a poll filters by in SQL ({@link #pollChannels}); with more, the poll reads every channel
     * ({@link #pollAll}) and the subscriber map filters.
     */
    public int maxFilteredChannels() {
        return InList.MAX;
    }

    /**
     * Trimming candidates: expired rows, oldest first, skipping rows another node is trimming right now. Ordered by
     * {@code created_at} so the created_at index serves it; ordered by id, PostgreSQL without fresh statistics walks
     * the primary key and filters the whole table.
     */
    public String selectExpiredForTrim() {
        // PostgreSQL 9.5+, MariaDB 10.6+ and MySQL 8+ all accept SKIP LOCKED.
        return "SELECT id FROM cable_messages WHERE created_at < ? ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED";
    }

    /**
     * One live-only channel's rows created before a time (whispers, presence events: see {@link Trimmer}), oldest
     * first, skipping rows another node is deleting right now. The (channel_hash, stream_position) index serves it:
     * positions follow commit order, so the expired rows come first, and the channel holds only what the live
     * retention keeps, so the scan stays short.
     */
    public String selectExpiredOfChannel() {
        return "SELECT id FROM cable_messages WHERE channel_hash = ? AND created_at < ? ORDER BY stream_position"
                + " LIMIT ? FOR UPDATE SKIP LOCKED";
    }

    /** What {@code quarkus.cable.wakeup.mode=auto} means on this database. */
    public abstract WakeupMode defaultWakeup();

    /**
     * Whether {@code failure} is the database refusing a row's data: SQLState class 22 (data exception) or 23
     * (integrity constraint), on the statement or on any exception chained to it. Writing the same rows again fails
     * the same way, so the writer isolates the row instead of retrying; every other failure (connection loss 08,
     * serialization and deadlock 40, administrator shutdown 57, lock timeouts, and what no class names) may pass on a
     * retry. Databases that report some data errors under the generic class HY000 add their vendor codes.
     */
    public final boolean rejectsRow(SQLException failure) {
        for (Throwable next = failure; next != null; next = next.getCause()) {
            if (next instanceof SQLException sqlFailure) {
                for (SQLException chained = sqlFailure; chained != null; chained = chained.getNextException()) {
                    String state = chained.getSQLState();
                    if (state != null && (state.startsWith("22") || state.startsWith("23"))) {
                        return true;
                    }
                    if (rejectsRowByVendorCode(chained.getErrorCode())) {
                        return true;
                    }
                    if (chained.getNextException() == chained) {
                        break;
                    }
                }
            }
            if (next.getCause() == next) {
                break;
            }
        }
        return false;
    }

    /**
     * Whether a failed write lost a conflict with another transaction and rolled back: a serialization failure
     * (40001), a deadlock (40P01, MariaDB/MySQL 1213), or a Galera certification failure or brute-force abort (1213 /
     * 40001 at COMMIT or at the next statement, because row locks are local to each Galera node). Nothing of the
     * transaction is stored, and the whole transaction, re-run from its first statement, may well pass.
     */
    public final boolean lostConflict(SQLException failure) {
        for (Throwable next = failure; next != null && next != next.getCause(); next = next.getCause()) {
            if (next instanceof SQLException sqlFailure) {
                String state = sqlFailure.getSQLState();
                if ("40001".equals(state) || "40P01".equals(state) || sqlFailure.getErrorCode() == 1213) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Stops a COMMIT that overran {@code quarkus.cable.writer.commit-timeout}, from another thread. The default
     * aborts the connection: the commit's answer is lost and its outcome unknown. PostgreSQL cancels the wait instead
     * (see there).
     */
    public void cancelCommit(Connection connection) throws SQLException {
        connection.abort(Runnable::run);
    }

    /** A vendor error code meaning "this row's data is refused" under a state outside classes 22 and 23. */
    boolean rejectsRowByVendorCode(int errorCode) {
        return false;
    }

    /** The doorbell's LISTEN, or null when the database has no LISTEN/NOTIFY. */
    public String listenDoorbell() {
        return null;
    }

    /** The doorbell's ring: one parameter, the ringing node's id (a hint, never trusted), or null without NOTIFY. */
    public String ringDoorbell() {
        return null;
    }

    // Shared statements. The shard row is both the id allocator and the writers' lock.

    /** Schema update: a column the script defines that an existing table lacks ({@code definition} from the script). */
    public String addColumn(String table, String definition) {
        return "ALTER TABLE " + table + " ADD COLUMN " + definition;
    }

    /** Schema update: an index the script defines that an existing table lacks. */
    public String createIndex(String name, String table, String columns) {
        return "CREATE INDEX " + name + " ON " + table + " " + columns;
    }

    public String lockShard() {
        return "SELECT last_id, " + identityColumns() + " FROM cable_shards WHERE shard = 0 FOR UPDATE";
    }

    public String updateShard() {
        return "UPDATE cable_shards SET last_id = ? WHERE shard = 0";
    }

    public String newestId() {
        return "SELECT last_id FROM cable_shards WHERE shard = 0";
    }

    /**
     * An expression naming the database's history: it changes when the cable is pointed at a database that may not
     * hold everything the cable committed before (a promoted standby, a restored backup), and stays the same across
     * restarts and reconnections to the same one. Evaluated by writers while they hold the lock.
     */
    abstract String databaseIdentity();

    /**
     * The identity the cable last wrote under (null before the first write) and the database's current one: two more
     * columns of the statement that takes the writers' lock, read by {@link DatabaseIdentityCheck}.
     */
    String identityColumns() {
        return "db_identity, " + databaseIdentity();
    }

    /**
     * Whether {@link #adaptTo} must see the server before the cable's statements are built: one db-kind may mean
     * servers whose SQL differs where the dialect needs it (MySQL Connector/J reaches MySQL and MariaDB servers).
     */
    public boolean adaptsToServer() {
        return false;
    }

    /** Adapts the statements to the server behind {@code connection}; called once at start when {@link #adaptsToServer}. */
    public void adaptTo(Connection connection) throws SQLException {
    }

    /** Records a new identity (first parameter) and the last id (second) the database had when it was first seen. */
    public String updateIdentity() {
        return "UPDATE cable_shards SET db_identity = ?, identity_since = ? WHERE shard = 0";
    }

    /** Gives every channel the same new epoch (one parameter): the positions of the old one can no longer be trusted. */
    public String renewAllEpochs() {
        return "UPDATE cable_channels SET epoch = ?";
    }

    /** What pollers watch: the identity recorded by writers, where its ids start, and the last id. */
    public String selectIdentityState() {
        return "SELECT db_identity, identity_since, last_id FROM cable_shards WHERE shard = 0";
    }

    public String selectWriterReceipt() {
        return "SELECT last_batch FROM cable_writers WHERE writer_id = ?";
    }

    public String updateWriterReceipt() {
        return "UPDATE cable_writers SET last_batch = ?, updated_at = ? WHERE writer_id = ?";
    }

    public String insertWriterReceipt() {
        return "INSERT INTO cable_writers (writer_id, last_batch, updated_at) VALUES (?, ?, ?)";
    }

    public String deleteIdleWriters() {
        return "DELETE FROM cable_writers WHERE updated_at < ?";
    }

    public String insertMessage() {
        return "INSERT INTO cable_messages (id, channel_hash, channel, payload, binary_payload, stream_position, created_at)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)";
    }

    public String selectChannelPositions(int hashCount) {
        return "SELECT channel_hash, last_position FROM cable_channels WHERE channel_hash IN ("
                + InList.placeholders(hashCount) + ")";
    }

    /**
     * Like {@link #selectChannelPositions}, as a locking read: inside an application's transaction a plain read may
     * see a snapshot older than the writers' lock (MariaDB and MySQL at REPEATABLE READ); a locking read sees the
     * newest committed positions.
     */
    public String selectChannelPositionsForUpdate(int hashCount) {
        return selectChannelPositions(hashCount) + " FOR UPDATE";
    }

    public String insertChannel() {
        return "INSERT INTO cable_channels (channel_hash, channel, epoch, last_position, last_message_id, created_at,"
                + " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)";
    }

    public String updateChannel() {
        return "UPDATE cable_channels SET last_position = ?, last_message_id = ?, updated_at = ? WHERE channel_hash = ?";
    }

    public String pollAll() {
        return "SELECT " + MESSAGE_COLUMNS + " FROM cable_messages WHERE id > ? ORDER BY id LIMIT ?";
    }

    public String pollChannels(int hashCount) {
        return "SELECT " + MESSAGE_COLUMNS + " FROM cable_messages"
                + " WHERE id > ? AND channel_hash IN (" + InList.placeholders(hashCount) + ") ORDER BY id LIMIT ?";
    }

    /** The columns every message query selects, in the order {@link MessageStore} reads them. */
    static final String MESSAGE_COLUMNS = "id, channel_hash, channel, payload, binary_payload, created_at, stream_position";

    // History (recoverable streams).

    /** The epochs of the given channels, for the positions of polled messages. */
    public String selectEpochs(int hashCount) {
        return "SELECT channel_hash, epoch FROM cable_channels WHERE channel_hash IN (" + InList.placeholders(hashCount)
                + ")";
    }

    /** One channel's epoch, newest position and newest message id. */
    public String selectChannelState() {
        return "SELECT channel, epoch, last_position, last_message_id FROM cable_channels WHERE channel_hash = ?";
    }

    /**
     * The lowest position of a channel's messages above an id: the first message after a starting line. Served by
     * the (channel_hash, stream_position) index.
     */
    public String firstPositionAfterId() {
        return "SELECT MIN(stream_position) FROM cable_messages WHERE channel_hash = ? AND id > ?";
    }

    /**
     * A channel's messages after a position and up to a starting line, in position order, bounded: the replay. The
     * (channel_hash, stream_position) index serves it as a range scan that stops at the limit.
     */
    public String history() {
        return "SELECT " + MESSAGE_COLUMNS + " FROM cable_messages WHERE channel_hash = ? AND stream_position > ?"
                + " AND id <= ? ORDER BY stream_position LIMIT ?";
    }

    /**
     * The message just before a position (to prove that nothing before a time-based replay was trimmed): present or
     * not.
     */
    public String positionExists() {
        return "SELECT id FROM cable_messages WHERE channel_hash = ? AND stream_position = ?";
    }

    /**
     * A channel's messages created at or after a time and up to a starting line, in position order, bounded: the
     * replay of a time-based ({@code since}) history request.
     */
    public String historySince() {
        return "SELECT " + MESSAGE_COLUMNS + " FROM cable_messages WHERE channel_hash = ? AND created_at >= ?"
                + " AND id <= ? ORDER BY stream_position LIMIT ?";
    }

    public String deleteMessages(int idCount) {
        return "DELETE FROM cable_messages WHERE id IN (" + InList.placeholders(idCount) + ")";
    }

    public String oldestCreatedAt() {
        return "SELECT MIN(created_at) FROM cable_messages";
    }

    /** Expired rows counted up to a cap: a range scan of the created_at index that stops at the cap. */
    public String countExpiredUpTo() {
        return "SELECT COUNT(*) FROM (SELECT id FROM cable_messages WHERE created_at < ? LIMIT ?) expired";
    }

    /** The newest messages of all channels, newest first (Dev UI). */
    /**
     * The newest messages, the channels of {@code excluded} hashes left out (an administration read: it walks the id
     * index backwards and skips the excluded rows).
     */
    public String recentMessages(int excluded) {
        String where = excluded == 0 ? ""
                : " WHERE channel_hash NOT IN (" + String.join(", ", Collections.nCopies(excluded, "?")) + ")";
        return "SELECT " + MESSAGE_COLUMNS + " FROM cable_messages" + where + " ORDER BY id DESC LIMIT ?";
    }

    // Presence (PresenceTable): the ids in each channel's set, the sessions behind them, the nodes' leases.

    /**
     * Adds a presence id to a channel's set, or gives it the info of its newest join; either way it locks the id's
     * row until the transaction ends, which orders every change of that id across nodes.
     */
    public abstract String upsertPresence();

    public String lockPresenceInfo() {
        return "SELECT info FROM cable_presence WHERE channel_hash = ? AND presence_id = ? FOR UPDATE";
    }

    public String lockPresence() {
        return "SELECT channel FROM cable_presence WHERE channel_hash = ? AND presence_id = ? FOR UPDATE";
    }

    /** How many sessions the id has, and whether the given session is one of them. */
    public String countPresenceSessions() {
        return "SELECT COUNT(*), COALESCE(SUM(CASE WHEN session_id = ? THEN 1 ELSE 0 END), 0)"
                + " FROM cable_presence_sessions WHERE channel_hash = ? AND presence_id = ?";
    }

    public String countAllPresenceSessions() {
        return "SELECT COUNT(*) FROM cable_presence_sessions WHERE channel_hash = ? AND presence_id = ?";
    }

    public String insertPresenceSession() {
        return "INSERT INTO cable_presence_sessions (channel_hash, presence_id, session_id, node_id, expires_at)"
                + " VALUES (?, ?, ?, ?, NULL)";
    }

    /** A session that joins again (before its TTL ran out) is connected again, on this node. */
    public String revivePresenceSession() {
        return "UPDATE cable_presence_sessions SET node_id = ?, expires_at = NULL"
                + " WHERE channel_hash = ? AND presence_id = ? AND session_id = ?";
    }

    public String deletePresenceSession() {
        return "DELETE FROM cable_presence_sessions WHERE channel_hash = ? AND presence_id = ? AND session_id = ?";
    }

    public String deleteExpiredPresenceSessions() {
        return "DELETE FROM cable_presence_sessions WHERE channel_hash = ? AND presence_id = ? AND expires_at < ?";
    }

    public String deletePresence() {
        return "DELETE FROM cable_presence WHERE channel_hash = ? AND presence_id = ?";
    }

    /** A session disconnected: its memberships last until the TTL ends (a reconnect within it is invisible). */
    public String expireSessionPresence() {
        return "UPDATE cable_presence_sessions SET expires_at = ? WHERE session_id = ? AND expires_at IS NULL";
    }

    /** A node stopped or lost its lease: the connected sessions it held expire at the given time. */
    public String expireNodePresence() {
        return "UPDATE cable_presence_sessions SET expires_at = ? WHERE node_id = ? AND expires_at IS NULL";
    }

    public String selectConnectedPresenceSessions() {
        return "SELECT DISTINCT session_id FROM cable_presence_sessions WHERE node_id = ? AND expires_at IS NULL";
    }

    public String selectExpiredPresence() {
        return "SELECT DISTINCT channel_hash, presence_id FROM cable_presence_sessions WHERE expires_at < ? LIMIT ?";
    }

    public String renewPresenceLease() {
        return "UPDATE cable_presence_nodes SET lease_until = ? WHERE node_id = ?";
    }

    public String insertPresenceLease() {
        return "INSERT INTO cable_presence_nodes (node_id, lease_until) VALUES (?, ?)";
    }

    public String selectLapsedPresenceLeases() {
        return "SELECT node_id, lease_until FROM cable_presence_nodes WHERE lease_until < ?";
    }

    public String deletePresenceLease() {
        return "DELETE FROM cable_presence_nodes WHERE node_id = ?";
    }

    public String presenceRecords() {
        return "SELECT presence_id, info FROM cable_presence WHERE channel_hash = ? ORDER BY presence_id LIMIT ?";
    }

    public String presenceCount() {
        return "SELECT COUNT(*) FROM cable_presence WHERE channel_hash = ?";
    }

    // The SQL broadcast (SqlBroadcastRoutines): cable_broadcast(channel, payload), for SQL clients and triggers.

    /**
     * The installed SQL broadcast routines' markers (a text containing {@link SqlBroadcastRoutines#marker()}), one
     * row per routine in the connection's schema; null when this database has no SQL broadcast (H2).
     */
    String sqlBroadcastMarkers() {
        return null;
    }

    /** How many routines {@link #sqlBroadcastRoutines} installs. */
    int sqlBroadcastRoutineCount() {
        return 0;
    }

    /**
     * The statements that (re)install the SQL broadcast in {@code schema}, with the limits written in. Each is one
     * JDBC statement (a routine body's own semicolons included).
     */
    List<String> sqlBroadcastRoutines(String schema, String marker, int maxChannelLength, long maxPayloadSize) {
        return List.of();
    }

    /**
     * {@code statement} as a line of a script a user runs in this database's own client: terminated by a semicolon,
     * except where a routine's body has semicolons of its own and the client needs another delimiter (MySQL/MariaDB).
     */
    String scriptStatement(String statement, boolean routine) {
        return statement + ";";
    }

    /**
     * The template of a stored routine, {@code META-INF/quarkus-cable/routines/<name>.sql}: SQL a reader can open beside
     * the DDL, kept out of Java strings. Its leading comment lines describe it and are not sent.
     */
    static String routine(String name) {
        String resource = "META-INF/quarkus-cable/routines/" + name + ".sql";
        try (InputStream in = SqlDialect.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Missing cable routine resource " + resource);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int body = 0;
            while (text.startsWith("--", body)) {
                body = text.indexOf('\n', body) + 1;
            }
            return text.substring(body).stripTrailing();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read cable routine resource " + resource, e);
        }
    }

    /** Every routine template, for the native image's resources. */
    public static final List<String> ROUTINE_RESOURCES = List.of(
            "META-INF/quarkus-cable/routines/postgresql-cable_broadcast.sql",
            "META-INF/quarkus-cable/routines/mariadb-cable_broadcast-function.sql",
            "META-INF/quarkus-cable/routines/mariadb-cable_broadcast-procedure.sql");

}
