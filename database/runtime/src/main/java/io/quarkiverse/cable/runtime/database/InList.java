package io.quarkiverse.cable.runtime.database;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * IN lists whose length is rounded up to a power of two and padded by repeating the last value, so a handful of
 * distinct statements serves every list length and drivers can reuse their prepared statements.
 */
final class InList {

    /**
     * Above this many values a list is split (writer) or replaced by reading all rows (poller). Measured on
     * PostgreSQL 15: planning an IN list of 256 hashes costs about 0.3 ms, of 1,024 about 1.1 ms, more than reading
     * a poll's 1,000 new rows unfiltered (docs: "The poller").
     */
    static final int MAX = 256;

    private InList() {
    }

    static int bucket(int count) {
        if (count < 1 || count > MAX) {
            throw new IllegalArgumentException("IN list of " + count + " values");
        }
        return Integer.highestOneBit(count) == count ? count : Integer.highestOneBit(count) << 1;
    }

    static String placeholders(int count) {
        return "?, ".repeat(count - 1) + "?";
    }

    /** Binds {@code values[from, to)} from parameter {@code firstIndex}, padded to {@code bucket(to - from)}. */
    static int bind(PreparedStatement statement, int firstIndex, long[] values, int from, int to) throws SQLException {
        int size = bucket(to - from);
        for (int i = 0; i < size; i++) {
            statement.setLong(firstIndex + i, values[Math.min(from + i, to - 1)]);
        }
        return firstIndex + size;
    }
}
