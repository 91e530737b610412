package io.quarkiverse.cable.runtime.database;

/** How a node learns that another node committed broadcasts, sooner than its next poll. */
public enum WakeupMode {
    /** PostgreSQL: {@link #NOTIFY}; MariaDB and MySQL: {@link #PROBE}; H2: {@link #NONE} (one process). */
    AUTO,
    /** PostgreSQL only: the writer rings with {@code NOTIFY}, every node {@code LISTEN}s on one dedicated connection. */
    NOTIFY,
    /** Any database: a single-row probe of the newest committed id at {@code probe-interval}; a poll when it moved. */
    PROBE,
    /** Nothing: other nodes' broadcasts are seen at the next poll ({@code polling-interval}). */
    NONE
}
