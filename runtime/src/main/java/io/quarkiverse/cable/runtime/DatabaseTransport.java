package io.quarkiverse.cable.runtime;

import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import javax.sql.DataSource;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.runtime.config.CableSettings;
import io.quarkiverse.cable.runtime.poller.Poller;
import io.quarkiverse.cable.runtime.store.MessageStore;
import io.quarkiverse.cable.runtime.store.OutgoingMessage;
import io.quarkiverse.cable.runtime.store.SchemaCreator;
import io.quarkiverse.cable.runtime.store.SqlDialect;
import io.quarkiverse.cable.runtime.subscribers.LocalSubscription;
import io.quarkiverse.cable.runtime.subscribers.SubscriberMap;
import io.quarkiverse.cable.runtime.trim.Trimmer;
import io.quarkiverse.cable.runtime.writer.BatchWriter;
import io.quarkus.datasource.common.runtime.DataSourceUtil;

/**
 * The {@code database} adapter: broadcasts go through the writer into the messages table; the poller reads them back
 * on every node. The datasource is resolved at {@link #start()}, when the application's datasources exist.
 */
public final class DatabaseTransport implements Transport {

    private static final long STOP_TIMEOUT_MILLIS = 30_000;

    private final String datasourceName;
    private final Supplier<DataSource> dataSource;
    private final SqlDialect dialect;
    private final SubscriberMap subscribers;
    private final CableSettings settings;
    private final CableStats stats;
    private MessageStore store;
    private BatchWriter writer;
    private Poller poller;
    private Trimmer trimmer;

    public DatabaseTransport(String datasourceName, Supplier<DataSource> dataSource, SqlDialect dialect,
            SubscriberMap subscribers, CableSettings settings, CableStats stats) {
        this.datasourceName = datasourceName;
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.subscribers = subscribers;
        this.settings = settings;
        this.stats = stats;
    }

    @Override
    public String adapter() {
        return "database";
    }

    @Override
    public void start() {
        DataSource source = dataSource.get();
        store = new MessageStore(source, dialect);
        poller = new Poller(store, subscribers, settings, stats);
        trimmer = new Trimmer(store, settings, stats);
        writer = new BatchWriter(store, settings, stats, rows -> {
            poller.wake();
            trimmer.afterWrite(rows);
        });
        try {
            if (settings.createSchema()) {
                SchemaCreator.createIfMissing(source, dialect);
            }
            poller.start("cable-poller-" + threadSuffix());
        } catch (SQLException e) {
            throw new IllegalStateException("Quarkus Cable could not start on datasource " + datasourceName + ": "
                    + e.getMessage() + (settings.createSchema() ? ""
                            : " (quarkus.cable.schema.create is false: are the cable tables created?)"),
                    e);
        }
        writer.start("cable-writer-" + threadSuffix());
        trimmer.start("cable-trimmer-" + threadSuffix());
    }

    @Override
    public CompletableFuture<Void> send(OutgoingMessage message) {
        return writer.submit(message);
    }

    @Override
    public void startSubscription(LocalSubscription subscription) {
        poller.startSubscription(subscription);
    }

    @Override
    public void stop() {
        if (writer == null) {
            return;
        }
        // Writer first: what was accepted is committed, then the poller can still deliver it while it drains.
        writer.stop(STOP_TIMEOUT_MILLIS);
        poller.wake();
        trimmer.stop(STOP_TIMEOUT_MILLIS);
        poller.stop(STOP_TIMEOUT_MILLIS);
        subscribers.endAll(new CableException.Stopped());
    }

    /** Thread names carry the datasource name; the default datasource's internal name is "{@code <default>}". */
    private String threadSuffix() {
        return DataSourceUtil.isDefault(datasourceName) ? "default" : datasourceName;
    }

    public String datasourceName() {
        return datasourceName;
    }

    public MessageStore store() {
        return store;
    }

    public BatchWriter writer() {
        return writer;
    }

    public Poller poller() {
        return poller;
    }

    public Trimmer trimmer() {
        return trimmer;
    }
}
