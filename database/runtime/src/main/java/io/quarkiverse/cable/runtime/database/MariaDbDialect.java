package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * MariaDB and MySQL (one dialect, adapted to the server it finds): the probe instead of a doorbell, multi-row batches
 * ({@link MariaDbBatchWrite}), the server or Galera identity, and the SQL broadcast function and procedure
 * (META-INF/quarkus-cable/routines/mariadb-cable_broadcast-*.sql).
 */
final class MariaDbDialect extends SqlDialect {
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
    String sqlBroadcastMarkers() {
        return "SELECT ROUTINE_COMMENT FROM information_schema.ROUTINES"
                + " WHERE ROUTINE_SCHEMA = DATABASE() AND ROUTINE_NAME = 'cable_broadcast'";
    }

    @Override
    int sqlBroadcastRoutineCount() {
        return 2;
    }

    /** The mysql / mariadb client splits on semicolons, a routine's body included, unless told otherwise. */
    @Override
    String scriptStatement(String statement, boolean routine) {
        return routine ? "DELIMITER $$\n" + statement + "$$\nDELIMITER ;" : statement + ";";
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
    @Override
    List<String> sqlBroadcastRoutines(String schema, String marker, int maxChannelLength, long maxPayloadSize) {
        String function = routine("mariadb-cable_broadcast-function");
        String procedure = routine("mariadb-cable_broadcast-procedure");
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
