package io.quarkiverse.cable.runtime.database;

import java.util.function.LongSupplier;

import io.quarkiverse.cable.spi.FailureLog;
import io.quarkiverse.cable.spi.WakeupStats;

/**
 * What a wake-up needs from the data path: pooled connections, the dialect's SQL, a way to wake the poller, when the
 * poller last completed a cycle, how many channels this node subscribes, and how many polls found rows.
 */
record WakeupParts(DoorbellRinger.PooledConnections pool, SqlDialect dialect, Runnable wake,
        LongSupplier lastPollNanos, java.util.function.IntSupplier channelCount, WakeupSettings settings,
        WakeupStats stats, FailureLog failures, String threadSuffix, LongSupplier pollsWithRows) {
}
