package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.HistorySettings;
import io.quarkiverse.cable.runtime.core.PresenceSettings;
import io.quarkiverse.cable.spi.HistorySource;
import io.quarkiverse.cable.spi.OutgoingMessage;
import io.quarkiverse.cable.spi.PendingSubscription;
import io.quarkiverse.cable.spi.PolledMessage;
import io.quarkiverse.cable.spi.PresenceStore;
import io.quarkiverse.cable.spi.StoreException;
import io.quarkiverse.cable.spi.Subscribers;
import io.quarkiverse.cable.spi.TransactionStore;
import io.quarkiverse.cable.spi.Transport;
import io.quarkiverse.cable.spi.TransportCounters;
import io.quarkiverse.cable.spi.TransportFactory;
import io.quarkiverse.cable.spi.TransportStatus;
import io.quarkiverse.cable.spi.Wakeup;
import io.quarkiverse.cable.spi.Worker;
import io.quarkus.datasource.common.runtime.DataSourceUtil;
import io.quarkus.runtime.LaunchMode;

/**
 * The {@code database} adapter: broadcasts go through the writer into the messages table; the poller reads them back
 * on every node. The datasource is resolved at {@link #start()}, when the application's datasources exist.
 */
public final class DatabaseTransport implements Transport, TransportStatus {

    private static final Logger LOG = Logger.getLogger(DatabaseTransport.class);

    private static final long STOP_TIMEOUT_MILLIS = 30_000;

    private final String datasourceName;
    private final Supplier<DataSource> dataSource;
    private final SqlDialect dialect;
    private final Subscribers subscribers;
    private final CableRuntimeConfig config;
    private final CableDatabaseConfig database;
    private final TransportCounters stats;
    private MessageStore store;
    private BatchWriter writer;
    private Poller poller;
    private Trimmer trimmer;
    private Wakeup wakeup = Wakeup.NONE;
    private volatile boolean trackHorizon;
    private HistorySource history;
    private DatabasePresence presence;

    /** The database adapter on {@code dataSource}, resolved at {@link #start()}, when the datasources exist. */
    public static TransportFactory factory(String datasourceName, Supplier<DataSource> dataSource, SqlDialect dialect,
            CableRuntimeConfig config, CableDatabaseConfig database) {
        DatabaseConfigCheck.validate(database);
        return (subscribers, stats) -> new DatabaseTransport(datasourceName, dataSource, dialect, subscribers, config,
                database, stats);
    }

    private DatabaseTransport(String datasourceName, Supplier<DataSource> dataSource, SqlDialect dialect,
            Subscribers subscribers, CableRuntimeConfig config, CableDatabaseConfig database, TransportCounters stats) {
        this.datasourceName = datasourceName;
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.subscribers = subscribers;
        this.config = config;
        this.database = database;
        this.stats = stats;
    }

    /** Read on the caller's connection: inside a JTA transaction, Agroal hands out the transaction's own. */
    @Override
    public Optional<StreamPosition> position(String channel, long channelHash) throws StoreException {
        try (Connection connection = dataSource.get().getConnection()) {
            return new ChannelCursor(dialect).read(connection, channel, channelHash);
        } catch (SQLException e) {
            throw new StoreException(e);
        }
    }

    @Override
    public String adapter() {
        return "database";
    }

    @Override
    public void start() {
        DataSource source = dataSource.get();
        adaptDialect(source);
        // The wake-up first: a doorbell that rings in the batch transaction shapes the store's batch statement. It
        // reaches the poller only once started, after the poller exists.
        wakeup = Wakeups.create(WakeupSettings.from(database.wakeup()), dialect, source, () -> poller.wake(),
                () -> poller.lastSuccessNanos(), subscribers::channelCount, stats, threadSuffix());
        store = new MessageStore(source, dialect, wakeup.ringInTransaction());
        poller = new Poller(store, subscribers, database, stats);
        trimmer = new Trimmer(store, config, database, stats);
        ReplayLimits limits = ReplayLimits.from(config);
        history = new CoalescedHistory(new DatabaseHistory(store, dialect, HistorySettings.from(config).maxReplay(),
                limits.pageSize()), replayShare(limits, source), stats);
        Wakeup ringing = wakeup;
        writer = new BatchWriter(store, config, stats, rows -> {
            poller.wake();
            ringing.committed();
            trimmer.afterWrite(rows);
        });
        // Presence events are written in the transactions that change the sets; their commits wake pollers the
        // same way as the writer's.
        // Its commits are bounded like the writer's (a synchronous standby that is away), by a deadline of its own.
        presence = new DatabasePresence(source, store, dialect, PresenceSettings.from(config),
                new CommitDeadline(store, config.writer().commitTimeout()), stats, rows -> {
                    poller.wake();
                    ringing.committed();
                    trimmer.afterWrite(rows);
                });
        if (trackHorizon) {
            poller.trackHorizon();
        }
        SchemaStrategy strategy = database.schema().strategy().orElseGet(() -> SchemaStrategy.defaultFor(LaunchMode.current()));
        try {
            try (Connection connection = source.getConnection()) {
                new SchemaManager(dialect, config.maxChannelLength(), config.maxPayloadSize().asLongValue())
                        .apply(connection, strategy, threadSuffix());
            }
            poller.start(threadSuffix());
        } catch (SQLException e) {
            throw new IllegalStateException("Quarkus Cable could not start on datasource " + datasourceName + ": "
                    + e.getMessage() + (strategy == SchemaStrategy.NONE
                            ? " (quarkus.cable.schema.strategy is none: are the cable tables created?)"
                            : ""),
                    e);
        }
        wakeup.start();
        writer.start(threadSuffix());
        trimmer.start(threadSuffix());
        presence.start(threadSuffix());
    }

    /** Lets the dialect see the server before any statement is built (MySQL Connector/J reaches MySQL and MariaDB). */
    private void adaptDialect(DataSource source) {
        if (!dialect.adaptsToServer()) {
            return;
        }
        try (Connection connection = source.getConnection()) {
            dialect.adaptTo(connection);
        } catch (SQLException e) {
            throw new IllegalStateException("Quarkus Cable could not start on datasource " + datasourceName + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public Optional<TransactionStore> transactionStore() {
        if (store == null || !(store.dataSource() instanceof AgroalDataSource agroal)) {
            return Optional.empty();
        }
        return Optional.of(new DatabaseTransactionStore(agroal, store, rows -> {
            poller.wake();
            // Broadcasts committed in the application's transaction ring other nodes too.
            wakeup.committed();
            trimmer.afterWrite(rows);
        }));
    }

    /**
     * The replays' share of the pool: at most the configured number of reads, and never so many that the writer,
     * the poller, the trimmer and the doorbell's ringer (one connection each) could not get theirs.
     */
    private ReplayLimits replayShare(ReplayLimits limits, DataSource source) {
        if (!(source instanceof AgroalDataSource agroal)) {
            return limits;
        }
        int poolSize = agroal.getConfiguration().connectionPoolConfiguration().maxSize();
        int share = Math.max(1, poolSize - 4);
        if (limits.maxConcurrent() <= share) {
            return limits;
        }
        LOG.warnf("quarkus.cable.history.max-concurrent-replays (%d) leaves the cable's own work less than 4 of the "
                + "datasource's %d connections: history reads use at most %d at once", limits.maxConcurrent(),
                poolSize, share);
        return limits.withMaxConcurrent(share);
    }

    @Override
    public HistorySource history() {
        return history;
    }

    @Override
    public PresenceStore presence() {
        if (presence == null) {
            throw new CableException.Stopped();
        }
        return presence;
    }

    @Override
    public CompletableFuture<Void> send(OutgoingMessage message) {
        return writer.submit(message);
    }

    @Override
    public void startSubscription(PendingSubscription subscription) {
        poller.startSubscription(subscription);
    }

    @Override
    public void stop() {
        if (writer == null) {
            return;
        }
        // Presence first: it hands this node's sessions to the TTL, while the database is still in use.
        presence.stop();
        // Writer next: what was accepted is committed, then the poller can still deliver it while it drains.
        writer.stop(STOP_TIMEOUT_MILLIS);
        wakeup.stop(STOP_TIMEOUT_MILLIS);
        poller.wake();
        trimmer.stop(STOP_TIMEOUT_MILLIS);
        poller.stop(STOP_TIMEOUT_MILLIS);
        subscribers.endAll(new CableException.Stopped());
    }

    /** This transport reads its own status: its writer, poller and wake-ups are its fields. */
    @Override
    public TransportStatus status() {
        return this;
    }

    @Override
    public Optional<String> store() {
        return Optional.of(datasourceName);
    }

    @Override
    public List<Worker> workers() {
        if (writer == null) {
            return List.of();
        }
        List<Worker> workers = new java.util.ArrayList<>(List.of(poller.worker(), writer.worker(), trimmer.worker()));
        workers.addAll(presence.workers());
        workers.addAll(wakeup.workers());
        return List.copyOf(workers);
    }

    @Override
    public Wakeup wakeup() {
        return wakeup;
    }

    @Override
    public Optional<Progress> progress() {
        if (writer == null) {
            return Optional.empty();
        }
        return Optional.of(new Progress(poller.cursor(), poller.horizon(), poller.lastSuccessNanos(),
                writer.queueDepth(), writer.oldestQueuedAtNanos()));
    }

    @Override
    public void trackHorizon() {
        trackHorizon = true;
        if (poller != null) {
            poller.trackHorizon();
        }
    }

    @Override
    public Optional<StoredCounts> count(Instant cutoff, long cap) throws StoreException {
        if (store == null) {
            return Optional.empty();
        }
        try (Connection connection = store.connection()) {
            return Optional.of(new StoredCounts(store.newestId(connection), store.countExpired(connection, cutoff, cap)));
        } catch (SQLException e) {
            throw new StoreException(e);
        }
    }

    @Override
    public List<PolledMessage> recent(int limit) throws StoreException {
        if (store == null) {
            return List.of();
        }
        try (Connection connection = store.connection()) {
            return store.recent(connection, limit);
        } catch (SQLException e) {
            throw new StoreException(e);
        }
    }

    @Override
    public List<PolledMessage> recent(int limit, Set<String> except) throws StoreException {
        if (store == null) {
            return List.of();
        }
        try (Connection connection = store.connection()) {
            return store.recent(connection, limit, except);
        } catch (SQLException e) {
            throw new StoreException(e);
        }
    }

    /** Thread names carry the datasource name; the default datasource's internal name is "{@code <default>}". */
    private String threadSuffix() {
        return DataSourceUtil.isDefault(datasourceName) ? "default" : datasourceName;
    }
}
