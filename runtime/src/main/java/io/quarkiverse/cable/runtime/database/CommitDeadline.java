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

    /** One commit under the deadline; {@link #answered()} when it returned or threw. */
    final class Watch {
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
        boolean answered() {
            if (state.compareAndSet(ARMED, ANSWERED)) {
                task.cancel(false);
                return false;
            }
            return true;
        }
    }

    Watch watch(Connection connection) {
        return new Watch(connection);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
