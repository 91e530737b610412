package io.quarkiverse.cable.spi;

/**
 * What an adapter counts on the data path, without locks; health checks and metrics read the totals (the core
 * implements it). Each method is one event; none blocks.
 */
public interface TransportCounters {

    /** One writer transaction of {@code size} broadcasts committed. */
    void batchCommitted(int size);

    /** A broadcast ordered without a database (memory adapter). */
    void committedInMemory();

    /** A writer batch lost a conflict with another transaction (40001, 1213) and is re-run. */
    void conflictRetried();

    /** One poll that ran a query, how long it took and how many rows it read. */
    void polled(long durationNanos, int rows);

    /** Polls that read at least one row; the doorbell's silence check compares them with the rings it heard. */
    long pollsWithRows();

    /** One polled row's write-to-hand-off lag. */
    void pollLag(long lagMillis);

    /** The largest lag of the rows of the poll that just ended; 0 after an empty poll. */
    void lastPollLag(long maxLagMillis);

    /** One message handed to {@code subscribers} local subscribers. */
    void delivered(int subscribers);

    /** Expired rows deleted. */
    void trimmed(int rows);

    /** A history step that read the database (after its admission). */
    void historyRead();

    /** A history step served by an identical read already in flight, without a query of its own. */
    void replayCoalesced();

    /** The poller saw a writer record a new database identity (every channel got a new epoch). */
    void databaseIdentityChanged();

    /** The poller found {@code lost} messages it had read missing from the database (ids went backwards). */
    void lostInFailover(long lost);

    /**
     * The presence sweep ended {@code sessions} sessions of this node that had no live connection behind them (each one
     * a defect: the front ends end every session they open; the sweep keeps such a defect from leaving a ghost).
     */
    void presenceSessionsSwept(int sessions);

    /** A presence change or read refused: its id or the node had the most presence work waiting. */
    void presenceRefused();

    /** One failure of {@code kind}; {@link FailureLog} counts through here and logs. */
    void failed(Failure kind);
}
