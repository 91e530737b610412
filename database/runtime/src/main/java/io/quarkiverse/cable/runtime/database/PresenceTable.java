package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.cable.PresenceRecord;

/**
 * The presence tables' statements (their SQL is the dialect's), each on a connection whose transaction the caller
 * runs. Times are UTC, like every other cable timestamp.
 */
final class PresenceTable {

    /** One presence id of one channel. */
    record Key(long channelHash, String presenceId) {
    }

    /** The sessions an id has, and whether the asking session is one of them. */
    record Sessions(int total, boolean mine) {
    }

    /** An id in a set, and its info (JSON text, or null). */
    record Member(String info) {
    }

    /** A node's lease that ran out. */
    record Lease(String nodeId, LocalDateTime until) {
    }

    private final SqlDialect sql;

    PresenceTable(SqlDialect sql) {
        this.sql = sql;
    }

    static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /** Adds the id to the channel's set (or updates its info) and locks its row. */
    void upsert(Connection c, long hash, String channel, String presenceId, String info, Instant now)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.upsertPresence())) {
            s.setLong(1, hash);
            s.setString(2, presenceId);
            s.setString(3, channel);
            if (info == null) {
                s.setNull(4, Types.VARCHAR);
            } else {
                s.setString(4, info);
            }
            s.setObject(5, utc(now));
            s.executeUpdate();
        }
    }

    /** Locks the id's row and reads its info; null when the id is not in the set. */
    Member member(Connection c, long hash, String presenceId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.lockPresenceInfo())) {
            s.setLong(1, hash);
            s.setString(2, presenceId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? new Member(rs.getString(1)) : null;
            }
        }
    }

    /** Locks the id's row; the channel's name, or null when the id is not in the set. */
    String lock(Connection c, long hash, String presenceId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.lockPresence())) {
            s.setLong(1, hash);
            s.setString(2, presenceId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    Sessions sessions(Connection c, long hash, String presenceId, String sessionId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.countPresenceSessions())) {
            s.setString(1, sessionId);
            s.setLong(2, hash);
            s.setString(3, presenceId);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return new Sessions(rs.getInt(1), rs.getLong(2) > 0);
            }
        }
    }

    int sessionCount(Connection c, long hash, String presenceId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.countAllPresenceSessions())) {
            s.setLong(1, hash);
            s.setString(2, presenceId);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    void addSession(Connection c, long hash, String presenceId, String sessionId, String nodeId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.insertPresenceSession())) {
            s.setLong(1, hash);
            s.setString(2, presenceId);
            s.setString(3, sessionId);
            s.setString(4, nodeId);
            s.executeUpdate();
        }
    }

    void reviveSession(Connection c, long hash, String presenceId, String sessionId, String nodeId)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.revivePresenceSession())) {
            s.setString(1, nodeId);
            s.setLong(2, hash);
            s.setString(3, presenceId);
            s.setString(4, sessionId);
            s.executeUpdate();
        }
    }

    int removeSession(Connection c, long hash, String presenceId, String sessionId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.deletePresenceSession())) {
            s.setLong(1, hash);
            s.setString(2, presenceId);
            s.setString(3, sessionId);
            return s.executeUpdate();
        }
    }

    int removeExpiredSessions(Connection c, long hash, String presenceId, Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.deleteExpiredPresenceSessions())) {
            s.setLong(1, hash);
            s.setString(2, presenceId);
            s.setObject(3, utc(now));
            return s.executeUpdate();
        }
    }

    void remove(Connection c, long hash, String presenceId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.deletePresence())) {
            s.setLong(1, hash);
            s.setString(2, presenceId);
            s.executeUpdate();
        }
    }

    int expireSession(Connection c, String sessionId, Instant at) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.expireSessionPresence())) {
            s.setObject(1, utc(at));
            s.setString(2, sessionId);
            return s.executeUpdate();
        }
    }

    int expireNode(Connection c, String nodeId, LocalDateTime at) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.expireNodePresence())) {
            s.setObject(1, at);
            s.setString(2, nodeId);
            return s.executeUpdate();
        }
    }

    /** This node's sessions that are connected (not handed to the TTL). */
    List<String> connectedSessions(Connection c, String nodeId) throws SQLException {
        List<String> sessions = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql.selectConnectedPresenceSessions())) {
            s.setString(1, nodeId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    sessions.add(rs.getString(1));
                }
            }
        }
        return sessions;
    }

    List<Key> expired(Connection c, Instant now, int limit) throws SQLException {
        List<Key> keys = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql.selectExpiredPresence())) {
            s.setObject(1, utc(now));
            s.setInt(2, limit);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    keys.add(new Key(rs.getLong(1), rs.getString(2)));
                }
            }
        }
        return keys;
    }

    /** Renews the node's lease; false when it had none (first start, or it lapsed and a survivor removed it). */
    boolean renewLease(Connection c, String nodeId, Instant until) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.renewPresenceLease())) {
            s.setObject(1, utc(until));
            s.setString(2, nodeId);
            if (s.executeUpdate() > 0) {
                return true;
            }
        }
        try (PreparedStatement s = c.prepareStatement(sql.insertPresenceLease())) {
            s.setString(1, nodeId);
            s.setObject(2, utc(until));
            s.executeUpdate();
        }
        return false;
    }

    List<Lease> lapsedLeases(Connection c, Instant now) throws SQLException {
        List<Lease> leases = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql.selectLapsedPresenceLeases())) {
            s.setObject(1, utc(now));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    leases.add(new Lease(rs.getString(1), rs.getObject(2, LocalDateTime.class)));
                }
            }
        }
        return leases;
    }

    void deleteLease(Connection c, String nodeId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.deletePresenceLease())) {
            s.setString(1, nodeId);
            s.executeUpdate();
        }
    }

    List<PresenceRecord> records(Connection c, long hash, int limit) throws SQLException {
        List<PresenceRecord> records = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql.presenceRecords())) {
            s.setLong(1, hash);
            s.setInt(2, limit);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    records.add(new PresenceRecord(rs.getString(1), rs.getString(2)));
                }
            }
        }
        return records;
    }

    int count(Connection c, long hash) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.presenceCount())) {
            s.setLong(1, hash);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
