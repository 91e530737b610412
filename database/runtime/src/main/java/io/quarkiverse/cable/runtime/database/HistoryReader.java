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

import io.quarkiverse.cable.CableException.HistoryUnavailable;
import io.quarkiverse.cable.CableException.HistoryUnavailable.Reason;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.spi.HistoryRequest;
import io.quarkiverse.cable.spi.Replay;

/**
 * Reads the history a recovering subscriber missed: a channel's messages after a position (or since a time) up to
 * the subscription's starting line, and proves that it is complete, or says why it is not.
 * <p>
 * The starting line S splits replay from live: messages with an id up to S are history, later ones reach the
 * subscriber live. Every id up to S is committed when S is read (ids become visible in commit order), so the history
 * cannot change except by trimming, which the completeness check catches. The replay must then hold exactly the
 * positions {@code offset+1 .. P(S)}, where P(S) is the channel's newest position among messages up to S.
 */
final class HistoryReader {

    private final SqlDialect sql;
    private final int pageSize;

    /** A reader whose queries return at most {@code pageSize} rows each (a replay is read page by page). */
    public HistoryReader(SqlDialect sql, int pageSize) {
        this.sql = sql;
        this.pageSize = pageSize;
    }

    /** What {@code request} asks for, of {@code channel}, up to {@code startingLine}, or why it is not all there. */
    public Replay replay(Connection connection, String channel, long channelHash, HistoryRequest request,
            long startingLine, int maxReplay) throws SQLException {
        ChannelState state = state(connection, channel, channelHash);
        return switch (request) {
            case HistoryRequest.After after -> after(connection, channel, channelHash, state, after.position(),
                    startingLine, maxReplay);
            case HistoryRequest.Since since -> since(connection, channel, channelHash, state, since.since(),
                    startingLine, maxReplay);
            case HistoryRequest.FromStart fromStart -> state == null ? new Replay(List.of(), null)
                    : after(connection, channel, channelHash, state, new StreamPosition(state.epoch, 0), startingLine,
                            maxReplay);
            case HistoryRequest.PositionOnly positionOnly -> state == null ? new Replay(List.of(), null)
                    : new Replay(List.of(), new StreamPosition(state.epoch, newestPositionUpTo(connection, channel,
                            channelHash, state, startingLine, new StreamPosition(state.epoch, 0))));
        };
    }

    private Replay after(Connection connection, String channel, long channelHash, ChannelState state,
            StreamPosition after, long startingLine, int maxReplay) throws SQLException {
        if (state == null) {
            throw new HistoryUnavailable(channel, after, Reason.UNKNOWN_STREAM, "the channel has no stored messages");
        }
        if (!state.epoch.equals(after.epoch())) {
            throw new HistoryUnavailable(channel, after, Reason.EPOCH_CHANGED, "the channel's epoch is now "
                    + state.epoch);
        }
        long newest = newestPositionUpTo(connection, channel, channelHash, state, startingLine, after);
        if (after.offset() > newest) {
            throw new HistoryUnavailable(channel, after, Reason.OFFSET_BEYOND_NEWEST, "the newest position is "
                    + newest);
        }
        long missed = newest - after.offset();
        if (missed > maxReplay) {
            throw new HistoryUnavailable(channel, after, Reason.TOO_LARGE, missed
                    + " messages were missed, over quarkus.cable.history.max-replay (" + maxReplay + ")");
        }
        StreamPosition position = new StreamPosition(state.epoch, newest);
        if (missed == 0) {
            return new Replay(List.of(), position);
        }
        List<CableMessage> replay = new ArrayList<>((int) missed);
        readPages(connection, channelHash, startingLine, after.offset(), (int) missed, state.epoch, replay);
        long expected = after.offset() + 1;
        for (CableMessage message : replay) {
            if (message.position() != expected || !message.channel().equals(channel)) {
                throw trimmed(channel, after, expected);
            }
            expected++;
        }
        if (expected != newest + 1) {
            throw trimmed(channel, after, expected);
        }
        return new Replay(replay, position);
    }

    /**
     * The messages created at or after {@code since}, up to {@code startingLine}. Best effort by
     * nature (it compares the client's clock with the writers'), and refused whenever the database cannot prove that
     * nothing before the first replayed message was trimmed.
     */
    private Replay since(Connection connection, String channel, long channelHash, ChannelState state, Instant since,
            long startingLine, int maxReplay) throws SQLException {
        if (state == null) {
            // Never written: nothing was missed.
            return new Replay(List.of(), null);
        }
        StreamPosition asked = new StreamPosition(state.epoch, 0);
        long newest = newestPositionUpTo(connection, channel, channelHash, state, startingLine, asked);
        int wanted = maxReplay + 1;
        List<CableMessage> replay = read(connection, sql.historySince(), channelHash, startingLine,
                Math.min(pageSize, wanted),
                statement -> statement.setObject(2, LocalDateTime.ofInstant(since, ZoneOffset.UTC)), state.epoch);
        if (replay.size() == Math.min(pageSize, wanted) && replay.size() < wanted) {
            // A full first page: the rest follows it in position order, page by page.
            replay = new ArrayList<>(replay);
            readPages(connection, channelHash, startingLine, replay.get(replay.size() - 1).position(),
                    wanted - replay.size(), state.epoch, replay);
        }
        if (replay.size() > maxReplay) {
            throw new HistoryUnavailable(channel, asked, Reason.TOO_LARGE, "more than " + maxReplay
                    + " messages since " + since + " (quarkus.cable.history.max-replay)");
        }
        long first = replay.isEmpty() ? newest + 1 : replay.get(0).position();
        long expected = first;
        for (CableMessage message : replay) {
            if (message.position() != expected || !message.channel().equals(channel)) {
                throw trimmed(channel, asked, expected);
            }
            expected++;
        }
        if (expected != newest + 1) {
            throw trimmed(channel, asked, expected);
        }
        // The message just before the first replayed one must still be there (it is older than since): then trimming,
        // which deletes oldest first, cannot have removed anything at or after since.
        if (first > 1 && !exists(connection, channelHash, first - 1)) {
            throw trimmed(channel, asked, first - 1);
        }
        return new Replay(replay, new StreamPosition(state.epoch, newest));
    }

    private static HistoryUnavailable trimmed(String channel, StreamPosition after, long missing) {
        return new HistoryUnavailable(channel, after, Reason.TRIMMED, "position " + missing + " is no longer stored");
    }

    /**
     * P(S): the channel's newest position among messages with an id up to the starting line. When the channel row's
     * newest message is at or below S, that is its last position; otherwise it is one below the first position above
     * S (positions are assigned in id order within a channel).
     */
    private long newestPositionUpTo(Connection connection, String channel, long channelHash, ChannelState state,
            long startingLine, StreamPosition after) throws SQLException {
        if (state.lastMessageId <= startingLine) {
            return state.lastPosition;
        }
        try (PreparedStatement select = connection.prepareStatement(sql.firstPositionAfterId())) {
            select.setLong(1, channelHash);
            select.setLong(2, startingLine);
            try (ResultSet rows = select.executeQuery()) {
                long first = rows.next() ? rows.getLong(1) : 0;
                if (first == 0) {
                    throw new HistoryUnavailable(channel, after, Reason.TRIMMED,
                            "the channel's messages after the starting line are no longer stored");
                }
                return first - 1;
            }
        }
    }

    private boolean exists(Connection connection, long channelHash, long position) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(sql.positionExists())) {
            select.setLong(1, channelHash);
            select.setLong(2, position);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next();
            }
        }
    }

    private ChannelState state(Connection connection, String channel, long channelHash) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(sql.selectChannelState())) {
            select.setLong(1, channelHash);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next() || !rows.getString(1).equals(channel)) {
                    // A hash shared with another channel's name counts as no history for this one.
                    return null;
                }
                return new ChannelState(rows.getString(2), rows.getLong(3), rows.getLong(4));
            }
        }
    }

    private List<CableMessage> read(Connection connection, String query, long channelHash, long startingLine, int limit,
            Binder second, String epoch) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(query)) {
            select.setLong(1, channelHash);
            second.bind(select);
            select.setLong(3, startingLine);
            select.setInt(4, limit);
            List<CableMessage> messages = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    messages.add(StoredRow.read(rows).message(epoch));
                }
            }
            return messages;
        }
    }

    /**
     * Appends up to {@code count} messages after position {@code from} to {@code into}, {@code page-size} per query
     * (keyset on the position, served by the (channel_hash, stream_position) index); stops at the first short page.
     */
    private void readPages(Connection connection, long channelHash, long startingLine, long from, int count,
            String epoch, List<CableMessage> into) throws SQLException {
        long after = from;
        int left = count;
        while (left > 0) {
            int want = Math.min(pageSize, left);
            long position = after;
            List<CableMessage> page = read(connection, sql.history(), channelHash, startingLine, want,
                    statement -> statement.setLong(2, position), epoch);
            into.addAll(page);
            left -= page.size();
            if (page.size() < want) {
                return;
            }
            after = page.get(page.size() - 1).position();
        }
    }

    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }

    private record ChannelState(String epoch, long lastPosition, long lastMessageId) {
    }
}
