package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;

import io.quarkiverse.cable.spi.HistoryRequest;
import io.quarkiverse.cable.spi.HistorySource;
import io.quarkiverse.cable.spi.Replay;

/** The database adapter's history: the messages table, read on a connection of its own per replay. */
final class DatabaseHistory implements HistorySource {

    private final MessageStore store;
    private final HistoryReader reader;
    private final int maxReplay;

    public DatabaseHistory(MessageStore store, SqlDialect dialect, int maxReplay, int pageSize) {
        this.store = store;
        this.reader = new HistoryReader(dialect, pageSize);
        this.maxReplay = maxReplay;
    }

    @Override
    public Replay replay(String channel, long channelHash, HistoryRequest request, long startingLine)
            throws Exception {
        try (Connection connection = store.connection()) {
            return reader.replay(connection, channel, channelHash, request, startingLine, maxReplay);
        }
    }
}
