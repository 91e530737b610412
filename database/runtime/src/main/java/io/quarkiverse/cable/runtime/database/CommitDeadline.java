package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.spi.CableThreads;

/**
 * The writer's own bound on a COMMIT ({@code quarkus.cable.writer.commit-timeout}): a commit can wait without error
 * and without end, for a synchronous standby that is away, and {@code statement_timeout} does not bound that wait. A
 * timer cancels the commit when it overruns (see {@code SqlDialect#cancelCommit}); the writer then reports the
 * batch as of unknown outcome.
 */
final class CommitDeadline implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(CommitDeadline.class);
    private static final int ARMED = 0;
    private static final int ANSWERED = 1;
    private static final int FIRED = 2;

    private final MessageStore store;
    private final long timeoutNanos;
    private final ScheduledThreadPoolExecutor timer;

    CommitDeadline(MessageStore store, Duration timeout) {
        this.store = store;
        this.timeoutNanos = timeout.toNanos();
        this.timer = CableThreads.timer(CableThreads.daemon("cable-commit-deadline"));
        // A commit answers within the deadline almost always: its timer must not pile up in the queue.
        timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * Commits {@code connection} under the deadline. When the deadline fired first, whatever the commit answered came
     * after the cancel and tells nothing certain: the connection, which the cancel may still reach, is aborted (the
     * pool discards an aborted connection instead of lending it out again) and {@link Overran} thrown.
     *
     * @throws SQLException the commit's own failure, answered within the deadline
     */
    void commit(Connection connection) throws SQLException {
        Watch watch = new Watch(connection);
        SQLException failure = null;
        try {
            connection.commit();
        } catch (SQLException e) {
            failure = e;
        }
        if (watch.answered()) {
            try {
                connection.abort(Runnable::run);
            } catch (SQLException | RuntimeException ignored) {
                // Broken already.
            }
            throw new Overran(failure);
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** A commit cancelled after the deadline: its outcome is unknown (its cause: what the commit answered, if any). */
    static final class Overran extends RuntimeException {
        private Overran(SQLException answer) {
            super("commit cancelled after commit-timeout", answer, false, false);
        }
    }

    /** One commit under the deadline; {@link #answered()} when it returned or threw. */
    private final class Watch {
        private final AtomicInteger state = new AtomicInteger(ARMED);
        private final ScheduledFuture<?> task;

        private Watch(Connection connection) {
            task = timer.schedule(() -> {
                if (state.compareAndSet(ARMED, FIRED)) {
                    try {
                        store.cancelCommit(connection);
                    } catch (SQLException | RuntimeException e) {
                        LOG.debugf("Cable could not cancel an overrunning commit: %s", e.getMessage());
                    }
                }
            }, timeoutNanos, TimeUnit.NANOSECONDS);
        }

        /** The commit answered; true when the deadline had fired first (the answer says nothing then). */
        private boolean answered() {
            if (state.compareAndSet(ARMED, ANSWERED)) {
                task.cancel(false);
                return false;
            }
            return true;
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
