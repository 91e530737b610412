package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The SQL broadcast, {@code cable_broadcast(channel, payload)}: a routine installed with the schema so any SQL client
 * or trigger can broadcast inside its own transaction, with the Java writer's guarantees (it takes the same shard lock
 * row, continues the same channel positions, creates epochs of the same shape). The configured limits
 * ({@code quarkus.cable.max-channel-length}, {@code quarkus.cable.max-payload-size}) are written into the routine when
 * it is installed, and named in a marker the routine carries, so a changed limit makes the routine "missing": updated
 * by {@code update}, printed by {@code validate}. The SQL itself is in templates under
 * {@code META-INF/quarkus-cable/routines}, filled in by the dialect; H2 has none.
 */
final class SqlBroadcastRoutines {

    /**
     * Bumped when the routines' SQL changes, so an installed older version is replaced (2: the identity check on
     * PostgreSQL; 3: the same check on MariaDB/MySQL; 4: the channels only the cable writes refused, as in Java).
     */
    static final int VERSION = 4;

    private final SqlDialect dialect;
    private final int maxChannelLength;
    private final long maxPayloadSize;

    public SqlBroadcastRoutines(SqlDialect dialect, int maxChannelLength, long maxPayloadSize) {
        this.dialect = dialect;
        this.maxChannelLength = maxChannelLength;
        this.maxPayloadSize = maxPayloadSize;
    }

    /** What an installed routine of this version and these limits carries (its comment, or a comment in its body). */
    String marker() {
        return "Quarkus Cable SQL broadcast v" + VERSION + ": max-channel-length=" + maxChannelLength
                + ", max-payload-size=" + maxPayloadSize;
    }

    /** The statements that install the routines, or none when they are installed as this version and limits define. */
    List<String> missing(Connection connection) throws SQLException {
        String query = dialect.sqlBroadcastMarkers();
        if (query == null) {
            return List.of();
        }
        int current = 0;
        try (PreparedStatement select = connection.prepareStatement(query);
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                String text = rows.getString(1);
                if (text != null && text.contains(marker())) {
                    current++;
                }
            }
        }
        if (current == dialect.sqlBroadcastRoutineCount()) {
            return List.of();
        }
        return dialect.sqlBroadcastRoutines(connection.getSchema(), marker(), maxChannelLength, maxPayloadSize);
    }

    /** Whether {@code statement} is one of the routines' (their failure to install does not stop the cable). */
    boolean owns(String statement, Connection connection) throws SQLException {
        return dialect.sqlBroadcastRoutines(connection.getSchema(), marker(), maxChannelLength, maxPayloadSize)
                .contains(statement);
    }
}
