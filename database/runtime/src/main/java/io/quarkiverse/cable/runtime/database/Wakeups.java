package io.quarkiverse.cable.runtime.database;

import java.sql.SQLException;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import javax.sql.DataSource;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.spi.FailureLog;
import io.quarkiverse.cable.spi.TransportCounters;
import io.quarkiverse.cable.spi.Wakeup;
import io.quarkiverse.cable.spi.WakeupStats;

/** Picks and builds the wake-up for a datasource from {@code quarkus.cable.wakeup.mode} and the database kind. */
final class Wakeups {

    private static final Logger LOG = Logger.getLogger(Wakeups.class);

    private Wakeups() {
    }

    /**
     * @param wake wakes the poller
     * @param lastPollNanos when the poller last completed a cycle (System.nanoTime)
     * @param channelCount how many channels this node subscribes
     */
    public static Wakeup create(WakeupSettings settings, SqlDialect dialect, DataSource dataSource, Runnable wake,
            LongSupplier lastPollNanos, IntSupplier channelCount, TransportCounters cableStats, String threadSuffix) {
        WakeupMode mode = settings.mode() == WakeupMode.AUTO ? dialect.defaultWakeup() : settings.mode();
        WakeupParts parts = new WakeupParts(dataSource::getConnection, dialect, wake, lastPollNanos, channelCount,
                settings, new WakeupStats(), new FailureLog(LOG, cableStats), threadSuffix, cableStats::pollsWithRows);
        return switch (mode) {
            case NONE, AUTO -> Wakeup.NONE;
            case PROBE -> new NewestIdProbe(parts);
            case NOTIFY -> {
                if (dialect.listenDoorbell() == null) {
                    throw new IllegalStateException("quarkus.cable.wakeup.mode=notify needs PostgreSQL; use probe on "
                            + "this database");
                }
                try {
                    yield new PgDoorbell(parts, UnpooledConnections.of(dataSource, settings.direct()));
                } catch (SQLException e) {
                    // Still fast across nodes, just not pushed: the probe needs only pooled connections.
                    LOG.warnf("Quarkus Cable cannot open the doorbell's own connection (%s); waking the poller with the"
                            + " newest-id probe instead", e.getMessage());
                    yield new NewestIdProbe(parts);
                }
            }
        };
    }
}
