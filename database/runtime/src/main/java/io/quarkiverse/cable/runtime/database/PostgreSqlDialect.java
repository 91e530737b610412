package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * PostgreSQL: the doorbell (LISTEN/NOTIFY), the batch in two statements ({@link PostgreSqlBatchWrite}), the cluster
 * identity, and the SQL broadcast function (META-INF/quarkus-cable/routines/postgresql-cable_broadcast.sql).
 */
final class PostgreSqlDialect extends SqlDialect {
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

    @Override
    public String upsertPresence() {
        return "INSERT INTO cable_presence (channel_hash, presence_id, channel, info, updated_at)"
                + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (channel_hash, presence_id)"
                + " DO UPDATE SET info = EXCLUDED.info, updated_at = EXCLUDED.updated_at";
    }

    /**
     * The cluster's system identifier (set by initdb, shared by its physical standbys: it tells another cluster
     * apart, a restore into a new one) and the current WAL timeline, which every promotion of a standby starts anew
     * (also Patroni's, after it restarts a crashed primary in place). The timeline comes from the current WAL file
     * name, correct right after the promotion; {@code pg_control_checkpoint()} would lag until the next checkpoint.
     * The WAL position exists only on a primary: a standby, where no write can succeed, reports "standby".
     */
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
        String function = routine("postgresql-cable_broadcast");
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
