package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import io.quarkiverse.cable.runtime.core.WakeupMode;

/**
 * All SQL the cable runs, per database. Statements that differ between databases are the only abstract methods;
 * everything else is shared ANSI SQL that H2, PostgreSQL and MariaDB/MySQL all accept.
 */
public abstract sealed class SqlDialect permits SqlDialect.H2, SqlDialect.PostgreSql, SqlDialect.MariaDb {

    /** Picks the dialect for a Quarkus {@code db-kind}. */
    public static SqlDialect forDbKind(String dbKind) {
        return switch (dbKind.toLowerCase(Locale.ROOT)) {
            case "h2" -> new H2();
            case "postgresql", "postgres", "pgsql", "pg" -> new PostgreSql();
            case "mariadb", "mysql" -> new MariaDb();
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
    public abstract String selectExpiredForTrim();

    /**
     * One live-only channel's rows created before a time (whispers, presence events: see {@link Trimmer}), oldest
     * first, skipping rows another node is deleting right now. The (channel_hash, stream_position) index serves it:
     * positions follow commit order, so the expired rows come first, and the channel holds only what the live
     * retention keeps, so the scan stays short.
     */
    public abstract String selectExpiredOfChannel();

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

    static final class H2 extends SqlDialect {
        @Override
        public String ddlResource() {
            return "META-INF/quarkus-cable/ddl/h2.sql";
        }

        @Override
        public String upsertPresence() {
            return "MERGE INTO cable_presence (channel_hash, presence_id, channel, info, updated_at)"
                    + " KEY (channel_hash, presence_id) VALUES (?, ?, ?, ?, ?)";
        }

        /** Embedded: one database for the life of its files, nothing to fail over to. */
        @Override
        String databaseIdentity() {
            return "'h2'";
        }

        /** Embedded: a round trip is a method call, so the portable statement per step costs nothing extra. */
        @Override
        BatchWrite batchWrite() {
            return new StepwiseBatchWrite(this);
        }

        /** Embedded H2 lives in one process, where a commit wakes the poller directly. */
        @Override
        public WakeupMode defaultWakeup() {
            return WakeupMode.NONE;
        }

        /**
         * Never filter: H2 serves {@code id > ? AND channel_hash IN (...)} from the channel index and visits every
         * row of the subscribed channels, not only the new ones (EXPLAIN ANALYZE, 40,000 rows over 250 channels, 100
         * new: 8,001 rows scanned, against 102 for the unfiltered primary-key range). The load matrix showed it as a
         * third of the server's CPU. H2 is embedded in one process, so reading the few rows of other channels is cheap.
         */
        @Override
        public int maxFilteredChannels() {
            return 0;
        }

        @Override
        public String selectExpiredForTrim() {
            // H2 is one process; plain row locks are enough.
            return "SELECT id FROM cable_messages WHERE created_at < ? ORDER BY created_at LIMIT ? FOR UPDATE";
        }

        @Override
        public String selectExpiredOfChannel() {
            return "SELECT id FROM cable_messages WHERE channel_hash = ? AND created_at < ? ORDER BY stream_position"
                    + " LIMIT ? FOR UPDATE";
        }
    }

    static final class PostgreSql extends SqlDialect {
        /** The doorbell's notification channel: every cable node on the database LISTENs on it. */
        private static final String DOORBELL_CHANNEL = "quarkus_cable";

        /**
         * A COMMIT that overruns is, in practice, waiting for a synchronous standby that is away (the commit is in
         * the local WAL, invisible, its locks held). A cancel request ends that wait: PostgreSQL answers the COMMIT
         * with success plus a warning, the transaction stays committed locally, and its locks (the shard row other
         * writers queue on) are released. Closing the socket would not: the backend would keep waiting.
         */
        @Override
        public void cancelCommit(Connection connection) throws SQLException {
            connection.unwrap(org.postgresql.PGConnection.class).cancelQuery();
        }

        @Override
        public String ddlResource() {
            return "META-INF/quarkus-cable/ddl/postgresql.sql";
        }

        /**
         * The cluster's system identifier (set by initdb, shared by its physical standbys: it tells another cluster
         * apart, a restore into a new one) and the current WAL timeline, which every promotion of a standby starts anew
         * (also Patroni's, after it restarts a crashed primary in place). The timeline comes from the current WAL file
         * name, correct right after the promotion; {@code pg_control_checkpoint()} would lag until the next checkpoint.
         * The WAL position exists only on a primary: a standby, where no write can succeed, reports "standby".
         */
        @Override
        public String upsertPresence() {
            return "INSERT INTO cable_presence (channel_hash, presence_id, channel, info, updated_at)"
                    + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (channel_hash, presence_id)"
                    + " DO UPDATE SET info = EXCLUDED.info, updated_at = EXCLUDED.updated_at";
        }

        @Override
        String databaseIdentity() {
            return "CAST((SELECT system_identifier FROM pg_control_system()) AS TEXT) || '/' ||"
                    + " CASE WHEN pg_is_in_recovery() THEN 'standby'"
                    + " ELSE substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8) END";
        }

        @Override
        BatchWrite batchWrite() {
            return new PostgreSqlBatchWrite(this, null);
        }

        @Override
        BatchWrite ringingBatchWrite(String ring) {
            return new PostgreSqlBatchWrite(this, ring);
        }

        /**
         * Takes the writers' lock and allocates the batch's ids (one parameter, the batch size): the new last id, then
         * the {@link #identityColumns() identities}.
         * With {@code ring} it also queues the doorbell's notification (a second parameter, the ringing node's id),
         * which PostgreSQL sends only if and when the transaction commits.
         */
        String allocateIds(boolean ring) {
            return "UPDATE cable_shards SET last_id = last_id + ? WHERE shard = 0 RETURNING last_id, " + identityColumns()
                    + (ring ? ", pg_notify('" + DOORBELL_CHANNEL + "', ?)" : "");
        }

        /**
         * The rest of a batch in one statement (see {@link PostgreSqlBatchWrite}). Parameters: the timestamp; the
         * channels' hashes, names, epochs (for new rows), message counts and last message ids as arrays; with
         * {@code receipt} the writer id, batch number and timestamp; the timestamp again; the messages' ids, channel
         * hashes, channel names, payloads, binary flags and later-message counts as arrays.
         */
        String writeBatch(boolean receipt) {
            return "WITH channels AS ("
                    + " INSERT INTO cable_channels (channel_hash, channel, epoch, last_position, last_message_id,"
                    + " created_at, updated_at)"
                    + " SELECT c.hash, c.channel, c.epoch, c.count, c.last_id, t.ts, t.ts"
                    + " FROM (SELECT CAST(? AS TIMESTAMP) AS ts) t,"
                    + " unnest(CAST(? AS BIGINT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS BIGINT[]),"
                    + " CAST(? AS BIGINT[])) AS c(hash, channel, epoch, count, last_id)"
                    + " ON CONFLICT (channel_hash) DO UPDATE SET"
                    + " last_position = cable_channels.last_position + EXCLUDED.last_position,"
                    + " last_message_id = EXCLUDED.last_message_id, updated_at = EXCLUDED.updated_at"
                    + " RETURNING channel_hash, last_position)"
                    + (receipt
                            ? ", receipt AS (INSERT INTO cable_writers (writer_id, last_batch, updated_at)"
                                    + " VALUES (?, ?, CAST(? AS TIMESTAMP))"
                                    + " ON CONFLICT (writer_id) DO UPDATE SET last_batch = EXCLUDED.last_batch,"
                                    + " updated_at = EXCLUDED.updated_at)"
                            : "")
                    + " INSERT INTO cable_messages (id, channel_hash, channel, payload, binary_payload, stream_position,"
                    + " created_at)"
                    + " SELECT m.id, m.hash, m.channel, m.payload, m.binary_payload, channels.last_position - m.later, t.ts"
                    + " FROM (SELECT CAST(? AS TIMESTAMP) AS ts) t,"
                    + " unnest(CAST(? AS BIGINT[]), CAST(? AS BIGINT[]), CAST(? AS TEXT[]), CAST(? AS BYTEA[]),"
                    + " CAST(? AS BOOLEAN[]), CAST(? AS INTEGER[])) AS m(id, hash, channel, payload, binary_payload, later)"
                    + " JOIN channels ON channels.channel_hash = m.hash";
        }

        @Override
        public WakeupMode defaultWakeup() {
            return WakeupMode.NOTIFY;
        }

        @Override
        public String listenDoorbell() {
            return "LISTEN " + DOORBELL_CHANNEL;
        }

        @Override
        public String ringDoorbell() {
            return "SELECT pg_notify('" + DOORBELL_CHANNEL + "', ?)";
        }

        @Override
        public String selectExpiredForTrim() {
            return "SELECT id FROM cable_messages WHERE created_at < ? ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED";
        }

        @Override
        public String selectExpiredOfChannel() {
            return "SELECT id FROM cable_messages WHERE channel_hash = ? AND created_at < ? ORDER BY stream_position"
                    + " LIMIT ? FOR UPDATE SKIP LOCKED";
        }

        /** The doorbell payload of SQL broadcasts: no node's id, so every node's poller wakes. */
        static final String SQL_RING = "sql";

        @Override
        String sqlBroadcastMarkers() {
            return "SELECT p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
                    + " WHERE p.proname = 'cable_broadcast' AND n.nspname = current_schema()";
        }

        @Override
        int sqlBroadcastRoutineCount() {
            return 1;
        }

        /**
         * One function, as one statement (the UPDATE of the shard row takes the writers' lock, held until the
         * caller's transaction ends; the channel upsert then continues the newest committed position, as
         * {@link PostgreSqlBatchWrite}'s does), and the revoke of PostgreSQL's default EXECUTE grant to PUBLIC: the
         * function runs with its owner's rights (SECURITY DEFINER, search path pinned to the cable's schema), so
         * only roles granted EXECUTE may broadcast.
         */
        @Override
        List<String> sqlBroadcastRoutines(String schema, String marker, int maxChannelLength, long maxPayloadSize) {
            String function = """
                    CREATE OR REPLACE FUNCTION cable_broadcast(channel TEXT, payload TEXT) RETURNS BIGINT
                    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = @SCHEMA@, pg_temp AS $cable$
                    -- @MARKER@
                    DECLARE
                        written TIMESTAMPTZ := clock_timestamp();
                        message_id BIGINT;
                        stream_pos BIGINT;
                        channel_key BIGINT;
                        bytes BYTEA;
                        seconds BIGINT;
                        new_epoch TEXT := '';
                        digits CONSTANT TEXT := '0123456789abcdefghijklmnopqrstuvwxyz';
                        stored_identity TEXT;
                        current_identity TEXT;
                    BEGIN
                        IF channel IS NULL OR channel = '' THEN
                            RAISE EXCEPTION 'cable_broadcast: the channel name must not be null or empty'
                                USING ERRCODE = '22004';
                        END IF;
                        IF length(channel) > @MAX_CHANNEL@ THEN
                            RAISE EXCEPTION 'cable_broadcast: the channel name is % characters, over quarkus.cable.max-channel-length (@MAX_CHANNEL@)',
                                length(channel) USING ERRCODE = '22001';
                        END IF;
                        -- IdentityChannels.isCableOwned: the channels only the cable writes (disconnect commands,
                        -- whispers, presence events), whose rows it turns into frames and closes connections on; the
                        -- Java API refuses them, so EXECUTE must not grant more. Compared as bytes (COLLATE "C"), as
                        -- Java compares: another case or a trailing space is another channel.
                        IF channel COLLATE "C" = 'cable:control:disconnect' OR left(channel, 13) COLLATE "C" = 'cable:whisper'
                                OR left(channel, 14) COLLATE "C" = 'cable:presence' THEN
                            RAISE EXCEPTION 'cable_broadcast: the channel ''%'' is reserved for the cable (disconnects, whispers, presence)',
                                channel USING ERRCODE = '42501';
                        END IF;
                        IF payload IS NULL THEN
                            RAISE EXCEPTION 'cable_broadcast: the payload must not be null' USING ERRCODE = '22004';
                        END IF;
                        bytes := convert_to(payload, 'UTF8');
                        IF octet_length(bytes) > @MAX_PAYLOAD@ THEN
                            RAISE EXCEPTION 'cable_broadcast: the payload is % bytes, over quarkus.cable.max-payload-size (@MAX_PAYLOAD@ bytes)',
                                octet_length(bytes) USING ERRCODE = '54000';
                        END IF;
                        -- ChannelHash: the first 8 bytes of the SHA-256 of the UTF-8 name, a big-endian signed long.
                        channel_key := ('x' || encode(substr(sha256(convert_to(channel, 'UTF8')), 1, 8), 'hex'))::bit(64)::bigint;
                        -- The writers' lock and the id: the same row and statement as the cable's writer.
                        UPDATE cable_shards SET last_id = last_id + 1 WHERE shard = 0 RETURNING last_id INTO message_id;
                        IF NOT FOUND THEN
                            RAISE EXCEPTION 'cable_broadcast: cable_shards has no row for shard 0: the cable schema is incomplete';
                        END IF;
                        -- Epochs.newEpoch: the second in base 36 and 6 random characters (kept when the channel exists).
                        seconds := floor(extract(epoch FROM written));
                        WHILE seconds > 0 LOOP
                            new_epoch := substr(digits, (seconds % 36)::int + 1, 1) || new_epoch;
                            seconds := seconds / 36;
                        END LOOP;
                        FOR i IN 1..6 LOOP
                            new_epoch := new_epoch || substr(digits, floor(random() * 36)::int + 1, 1);
                        END LOOP;
                        -- DatabaseIdentityCheck: on a database that is not the one the cable last wrote to (a
                        -- promoted standby), every channel gets a new epoch before anything is written.
                        SELECT db_identity, @IDENTITY@ INTO stored_identity, current_identity FROM cable_shards
                            WHERE shard = 0;
                        IF stored_identity IS DISTINCT FROM current_identity THEN
                            IF stored_identity IS NOT NULL THEN
                                UPDATE cable_channels SET epoch = new_epoch;
                                UPDATE cable_shards SET db_identity = current_identity, identity_since = message_id - 1
                                    WHERE shard = 0;
                            ELSE
                                UPDATE cable_shards SET db_identity = current_identity WHERE shard = 0;
                            END IF;
                        END IF;
                        INSERT INTO cable_channels AS c (channel_hash, channel, epoch, last_position, last_message_id,
                                created_at, updated_at)
                            VALUES (channel_key, cable_broadcast.channel, new_epoch, 1, message_id,
                                written AT TIME ZONE 'UTC', written AT TIME ZONE 'UTC')
                            ON CONFLICT (channel_hash) DO UPDATE SET last_position = c.last_position + 1,
                                last_message_id = EXCLUDED.last_message_id, updated_at = EXCLUDED.updated_at
                            RETURNING c.last_position INTO stream_pos;
                        INSERT INTO cable_messages (id, channel_hash, channel, payload, binary_payload, stream_position,
                                created_at)
                            VALUES (message_id, channel_key, cable_broadcast.channel, bytes, FALSE, stream_pos,
                                written AT TIME ZONE 'UTC');
                        -- The doorbell, sent by PostgreSQL with the commit, only if it commits.
                        PERFORM pg_notify('@DOORBELL@', '@RING@');
                        RETURN message_id;
                    END
                    $cable$""";
            return List.of(function.replace("@SCHEMA@", quoted(schema)).replace("@MARKER@", marker)
                    .replace("@MAX_CHANNEL@", Integer.toString(maxChannelLength))
                    .replace("@MAX_PAYLOAD@", Long.toString(maxPayloadSize))
                    .replace("@DOORBELL@", DOORBELL_CHANNEL).replace("@RING@", SQL_RING)
                    .replace("@IDENTITY@", databaseIdentity()),
                    "REVOKE ALL ON FUNCTION cable_broadcast(TEXT, TEXT) FROM PUBLIC");
        }

        private static String quoted(String identifier) {
            return "\"" + identifier.replace("\"", "\"\"") + "\"";
        }
    }

    static final class MariaDb extends SqlDialect {
        /**
         * MariaDB reports some refused values as SQLState HY000: 1366 incorrect value for a column (an invalid
         * string for the column's character set), 1292 truncated incorrect value, 1048 NULL into a NOT NULL column
         * (23000 in strict mode, HY000 otherwise), 4025 a CHECK constraint failed.
         */
        @Override
        boolean rejectsRowByVendorCode(int errorCode) {
            return errorCode == 1366 || errorCode == 1292 || errorCode == 1048 || errorCode == 4025;
        }

        @Override
        public String upsertPresence() {
            return "INSERT INTO cable_presence (channel_hash, presence_id, channel, info, updated_at)"
                    + " VALUES (?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE info = VALUES(info), updated_at = VALUES(updated_at)";
        }

        @Override
        public String ddlResource() {
            return "META-INF/quarkus-cable/ddl/mariadb.sql";
        }

        /**
         * In a Galera cluster, the cluster's state UUID: every node of the cluster reports the same one, so writers on
         * different nodes agree, and it changes only when a new cluster is bootstrapped from scratch. Otherwise the
         * server id: replication refuses a replica with its source's id, so a promoted replica reports another one.
         * ({@code @@wsrep_on} exists on every MariaDB.) A MySQL server has neither {@code @@wsrep_on} nor that status
         * table, and naming an unknown variable fails the statement: there the server's UUID, which a promoted
         * replica does not share with its source ({@link #adaptTo} picks it, from the server's version string).
         */
        @Override
        String databaseIdentity() {
            return identity;
        }

        private static final String MARIADB_IDENTITY = "IF(@@wsrep_on, CONCAT('galera/', (SELECT VARIABLE_VALUE"
                + " FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'WSREP_CLUSTER_STATE_UUID')),"
                + " CONCAT('server/', @@server_id))";
        private static final String MYSQL_IDENTITY = "CONCAT('server/', @@server_uuid)";
        /** MariaDB's until {@link #adaptTo} finds a MySQL server (db-kind {@code mysql} reaches both). */
        private volatile String identity = MARIADB_IDENTITY;

        @Override
        public boolean adaptsToServer() {
            return true;
        }

        @Override
        public void adaptTo(Connection connection) throws SQLException {
            try (var statement = connection.createStatement();
                    var version = statement.executeQuery("SELECT VERSION()")) {
                boolean mysql = version.next() && !version.getString(1).contains("MariaDB");
                identity = mysql ? MYSQL_IDENTITY : MARIADB_IDENTITY;
            }
        }

        @Override
        BatchWrite batchWrite() {
            return new MariaDbBatchWrite(this);
        }

        /**
         * Takes the writers' lock and reads the last id and the positions of up to {@code hashCount} channels in one
         * locking read: one row per stored channel, or one row with NULL channel columns when none is stored, each
         * with the {@link #identityColumns() identities}. The shard row is a constant (primary key) lookup, read and
         * locked before the channel rows.
         */
        String lockShardWithChannels(int hashCount) {
            return "SELECT s.last_id, c.channel_hash, c.last_position, s." + identityColumns() + " FROM cable_shards s"
                    + " LEFT JOIN cable_channels c ON c.channel_hash IN (" + InList.placeholders(hashCount) + ")"
                    + " WHERE s.shard = 0 FOR UPDATE";
        }

        /** {@link #insertMessage()} with {@code rows} rows in one VALUES list. */
        String insertMessages(int rows) {
            return "INSERT INTO cable_messages (id, channel_hash, channel, payload, binary_payload, stream_position,"
                    + " created_at) VALUES " + rowsOf(7, rows);
        }

        /**
         * Inserts or updates {@code rows} channels (the columns of {@link #insertChannel()}): a stored channel keeps its
         * epoch and creation time and takes the new last position, last message id and update time.
         */
        String upsertChannels(int rows) {
            return "INSERT INTO cable_channels (channel_hash, channel, epoch, last_position, last_message_id,"
                    + " created_at, updated_at) VALUES " + rowsOf(7, rows)
                    + " ON DUPLICATE KEY UPDATE last_position = VALUES(last_position),"
                    + " last_message_id = VALUES(last_message_id), updated_at = VALUES(updated_at)";
        }

        /**
         * The new last id and the writer's receipt in one statement (last id, batch number, timestamp, writer id).
         * Updates nothing while the writer has no receipt row yet.
         */
        String updateShardAndReceipt() {
            return "UPDATE cable_shards s, cable_writers w SET s.last_id = ?, w.last_batch = ?, w.updated_at = ?"
                    + " WHERE s.shard = 0 AND w.writer_id = ?";
        }

        private static String rowsOf(int columns, int rows) {
            String row = "(" + InList.placeholders(columns) + ")";
            StringBuilder values = new StringBuilder(rows * (row.length() + 2));
            for (int i = 0; i < rows; i++) {
                if (i > 0) {
                    values.append(", ");
                }
                values.append(row);
            }
            return values.toString();
        }

        /** No NOTIFY: the newest id (one row by primary key, {@link #newestId()}) is probed instead. */
        @Override
        public WakeupMode defaultWakeup() {
            return WakeupMode.PROBE;
        }

        @Override
        public String selectExpiredForTrim() {
            // MariaDB 10.6+ and MySQL 8+ both accept SKIP LOCKED.
            return "SELECT id FROM cable_messages WHERE created_at < ? ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED";
        }

        @Override
        public String selectExpiredOfChannel() {
            return "SELECT id FROM cable_messages WHERE channel_hash = ? AND created_at < ? ORDER BY stream_position"
                    + " LIMIT ? FOR UPDATE SKIP LOCKED";
        }

        @Override
        String sqlBroadcastMarkers() {
            return "SELECT ROUTINE_COMMENT FROM information_schema.ROUTINES"
                    + " WHERE ROUTINE_SCHEMA = DATABASE() AND ROUTINE_NAME = 'cable_broadcast'";
        }

        @Override
        int sqlBroadcastRoutineCount() {
            return 2;
        }

        /**
         * A function that writes (the shard row's locking read takes the writers' lock, held until the caller's
         * transaction ends; the channel upsert and the message insert follow, as {@link MariaDbBatchWrite}'s do) and a
         * procedure of the same name for {@code CALL}. The writes are in a function because a function runs inside
         * one statement: called in autocommit mode, a procedure's statements would each commit on their own, releasing
         * the lock between the id and the message; a procedure cannot open a transaction of its own either and still
         * be callable from a trigger. Both run with their definer's rights (SQL SECURITY DEFINER): a caller needs only
         * EXECUTE on them. DROP and CREATE rather than CREATE OR REPLACE, which MySQL lacks.
         */
        /** The mysql / mariadb client splits on semicolons, a routine's body included, unless told otherwise. */
        @Override
        String scriptStatement(String statement, boolean routine) {
            return routine ? "DELIMITER $$\n" + statement + "$$\nDELIMITER ;" : statement + ";";
        }

        @Override
        List<String> sqlBroadcastRoutines(String schema, String marker, int maxChannelLength, long maxPayloadSize) {
            String function = """
                    CREATE FUNCTION cable_broadcast(channel TEXT CHARACTER SET utf8mb4,
                        payload LONGTEXT CHARACTER SET utf8mb4) RETURNS BIGINT
                    NOT DETERMINISTIC MODIFIES SQL DATA SQL SECURITY DEFINER
                    COMMENT '@MARKER@'
                    BEGIN
                        DECLARE message_id BIGINT;
                        DECLARE stream_pos BIGINT;
                        DECLARE channel_key BIGINT;
                        DECLARE digest DECIMAL(20, 0);
                        DECLARE written DATETIME(6) DEFAULT UTC_TIMESTAMP(6);
                        DECLARE new_epoch VARCHAR(32);
                        DECLARE digits CHAR(36) DEFAULT '0123456789abcdefghijklmnopqrstuvwxyz';
                        DECLARE problem VARCHAR(255);
                        DECLARE stored_identity VARCHAR(255);
                        DECLARE current_identity VARCHAR(255);
                        IF channel IS NULL OR CHAR_LENGTH(channel) = 0 THEN
                            SIGNAL SQLSTATE '22004'
                                SET MESSAGE_TEXT = 'cable_broadcast: the channel name must not be null or empty';
                        END IF;
                        IF CHAR_LENGTH(channel) > @MAX_CHANNEL@ THEN
                            SET problem = CONCAT('cable_broadcast: the channel name is ', CHAR_LENGTH(channel),
                                ' characters, over quarkus.cable.max-channel-length (@MAX_CHANNEL@)');
                            SIGNAL SQLSTATE '22001' SET MESSAGE_TEXT = problem;
                        END IF;
                        -- IdentityChannels.isCableOwned: the channels only the cable writes (disconnect commands,
                        -- whispers, presence events), whose rows it turns into frames and closes connections on; the
                        -- Java API refuses them, so EXECUTE must not grant more. Compared as bytes: the parameter's
                        -- collation ignores case and trailing spaces, and Java takes those for other channels.
                        IF CAST(channel AS BINARY) = CAST('cable:control:disconnect' AS BINARY)
                                OR LEFT(CAST(channel AS BINARY), 13) = CAST('cable:whisper' AS BINARY)
                                OR LEFT(CAST(channel AS BINARY), 14) = CAST('cable:presence' AS BINARY) THEN
                            -- The name clipped: MySQL's MESSAGE_TEXT holds 128 characters.
                            SET problem = CONCAT('cable_broadcast: the channel ''', LEFT(channel, 30), ''' is reserved',
                                ' for the cable (disconnects, whispers, presence)');
                            SIGNAL SQLSTATE '42501' SET MESSAGE_TEXT = problem;
                        END IF;
                        IF payload IS NULL THEN
                            SIGNAL SQLSTATE '22004' SET MESSAGE_TEXT = 'cable_broadcast: the payload must not be null';
                        END IF;
                        IF LENGTH(payload) > @MAX_PAYLOAD@ THEN
                            SET problem = CONCAT('cable_broadcast: the payload is ', LENGTH(payload),
                                ' bytes, over quarkus.cable.max-payload-size (@MAX_PAYLOAD@ bytes)');
                            SIGNAL SQLSTATE '54000' SET MESSAGE_TEXT = problem;
                        END IF;
                        -- ChannelHash: the first 8 bytes of the SHA-256 of the UTF-8 name, a big-endian signed long.
                        SET digest = CAST(CONV(LEFT(SHA2(channel, 256), 16), 16, 10) AS DECIMAL(20, 0));
                        SET channel_key = IF(digest >= 9223372036854775808, digest - 18446744073709551616, digest);
                        -- The writers' lock and the id: the same row the cable's writer locks.
                        SELECT last_id + 1 INTO message_id FROM cable_shards WHERE shard = 0 FOR UPDATE;
                        IF message_id IS NULL THEN
                            SIGNAL SQLSTATE '55000' SET MESSAGE_TEXT
                                = 'cable_broadcast: cable_shards has no row for shard 0: the cable schema is incomplete';
                        END IF;
                        UPDATE cable_shards SET last_id = message_id WHERE shard = 0;
                        -- Epochs.newEpoch: the second in base 36 and 6 random characters (kept when the channel exists).
                        SET new_epoch = CONCAT(LOWER(CONV(UNIX_TIMESTAMP(), 10, 36)),
                            SUBSTRING(digits, FLOOR(1 + RAND() * 36), 1), SUBSTRING(digits, FLOOR(1 + RAND() * 36), 1),
                            SUBSTRING(digits, FLOOR(1 + RAND() * 36), 1), SUBSTRING(digits, FLOOR(1 + RAND() * 36), 1),
                            SUBSTRING(digits, FLOOR(1 + RAND() * 36), 1), SUBSTRING(digits, FLOOR(1 + RAND() * 36), 1));
                        -- DatabaseIdentityCheck: on a database that is not the one the cable last wrote to (a
                        -- promoted replica, another Galera cluster), every channel gets a new epoch before anything
                        -- is written. The shard row is already locked by this transaction.
                        SELECT db_identity, @IDENTITY@ INTO stored_identity, current_identity FROM cable_shards
                            WHERE shard = 0;
                        IF current_identity IS NOT NULL AND NOT (stored_identity <=> current_identity) THEN
                            IF stored_identity IS NOT NULL THEN
                                UPDATE cable_channels SET epoch = new_epoch;
                                UPDATE cable_shards SET db_identity = current_identity, identity_since = message_id - 1
                                    WHERE shard = 0;
                            ELSE
                                UPDATE cable_shards SET db_identity = current_identity WHERE shard = 0;
                            END IF;
                        END IF;
                        INSERT INTO cable_channels (channel_hash, channel, epoch, last_position, last_message_id,
                                created_at, updated_at)
                            VALUES (channel_key, channel, new_epoch, 1, message_id, written, written)
                            ON DUPLICATE KEY UPDATE last_position = last_position + 1,
                                last_message_id = VALUES(last_message_id), updated_at = VALUES(updated_at);
                        SELECT last_position INTO stream_pos FROM cable_channels WHERE channel_hash = channel_key
                            FOR UPDATE;
                        INSERT INTO cable_messages (id, channel_hash, channel, payload, binary_payload, stream_position,
                                created_at)
                            VALUES (message_id, channel_key, channel, payload, FALSE, stream_pos, written);
                        RETURN message_id;
                    END""";
            String procedure = """
                    CREATE PROCEDURE cable_broadcast(IN channel TEXT CHARACTER SET utf8mb4,
                        IN payload LONGTEXT CHARACTER SET utf8mb4)
                    MODIFIES SQL DATA SQL SECURITY DEFINER
                    COMMENT '@MARKER@'
                    BEGIN
                        DECLARE message_id BIGINT;
                        -- One statement, so its writes commit together even in autocommit mode (not DO, which turns
                        -- the function's errors into warnings).
                        SELECT cable_broadcast(channel, payload) INTO message_id;
                    END""";
            return List.of("DROP FUNCTION IF EXISTS cable_broadcast", fill(function, marker, maxChannelLength,
                    maxPayloadSize), "DROP PROCEDURE IF EXISTS cable_broadcast",
                    fill(procedure, marker, maxChannelLength, maxPayloadSize));
        }

        /** The identity expression is the one {@link #adaptTo} chose for this server (MariaDB's or MySQL's). */
        private String fill(String routine, String marker, int maxChannelLength, long maxPayloadSize) {
            return routine.replace("@MARKER@", marker).replace("@MAX_CHANNEL@", Integer.toString(maxChannelLength))
                    .replace("@MAX_PAYLOAD@", Long.toString(maxPayloadSize)).replace("@IDENTITY@", databaseIdentity());
        }
    }
}
