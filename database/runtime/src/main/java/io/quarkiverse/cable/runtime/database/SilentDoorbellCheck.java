package io.quarkiverse.cable.runtime.database;

import java.util.function.LongSupplier;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.spi.WakeupStats;

/**
 * Notices a doorbell that is connected but deaf: every committed batch rings (this node's own rings too reach its
 * listener, which only skips them), so a listener that hears nothing at all while this node's polls keep finding
 * rows is not on the database's notification path. The usual cause is a pooler in transaction mode (PgBouncer, RDS
 * Proxy): it accepts {@code LISTEN} on whatever server connection is free and never forwards the notifications.
 * Polling still delivers, one {@code polling-interval} late; the check reports it in the health data, a metric and
 * one warning, and clears itself when a notification arrives.
 * <p>
 * Only the listener thread calls it.
 */
final class SilentDoorbellCheck {

    /** Rows read right after a (re)connect may have rung before the LISTEN; they prove nothing. */
    static final long GRACE_NANOS = 2_000_000_000L;
    /** Polls with rows, after the grace, that a working doorbell could not have let pass in silence. */
    static final long POLLS_WITH_ROWS = 5;

    private static final Logger LOG = Logger.getLogger(SilentDoorbellCheck.class);

    private final LongSupplier pollsWithRows;
    private final WakeupStats stats;
    private final String route;
    private long connectedAtNanos;
    private long baseline = -1;
    private boolean heard;
    private boolean warned;

    SilentDoorbellCheck(LongSupplier pollsWithRows, WakeupStats stats, String route) {
        this.pollsWithRows = pollsWithRows;
        this.stats = stats;
        this.route = route;
    }

    /** The listener (re)connected: what it heard before counts no more. */
    void connected(long nowNanos) {
        connectedAtNanos = nowNanos;
        baseline = -1;
        heard = false;
    }

    /** Any notification, this node's own included: the route works. */
    void heard() {
        heard = true;
        stats.silent = false;
    }

    void check(long nowNanos) {
        if (heard || nowNanos - connectedAtNanos < GRACE_NANOS) {
            return;
        }
        long polls = pollsWithRows.getAsLong();
        if (baseline < 0) {
            baseline = polls;
            return;
        }
        if (polls - baseline < POLLS_WITH_ROWS || stats.silent) {
            return;
        }
        stats.silent = true;
        if (!warned) {
            warned = true;
            LOG.warnf("Quarkus Cable's doorbell has heard no notification on its LISTEN connection (%s) while %d "
                    + "polls found new rows: the connection most likely goes through a pooler in transaction mode "
                    + "(PgBouncer, RDS Proxy), which accepts LISTEN and drops every notification. Broadcasts from "
                    + "other nodes arrive only at each polling-interval. Set quarkus.cable.wakeup.jdbc-url to a "
                    + "direct URL of the primary. (Also seen when every node writing rows runs with "
                    + "quarkus.cable.wakeup.mode=none, which rings nothing.)", route, polls - baseline);
        }
    }
}
