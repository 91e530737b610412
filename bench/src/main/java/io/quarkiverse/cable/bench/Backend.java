package io.quarkiverse.cable.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableRuntimeConfig;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.database.CableDatabaseConfig;
import io.quarkiverse.cable.runtime.database.DatabaseTransport;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.runtime.memory.MemoryTransport;
import io.quarkus.datasource.common.runtime.DataSourceUtil;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * One thing that can take broadcasts: Quarkus Cable on an adapter, or Redis PUBLISH (the baseline). Built outside
 * Quarkus from the runtime's own classes.
 */
abstract class Backend {

    /** A fixed, small payload: the same bytes for every backend (like the "Hello World!" of the cache benchmark). */
    static final String PAYLOAD = "{\"type\":\"message\",\"body\":\"Hello World!\"}";

    /** Outcome counters of one iteration, shared by its worker threads. */
    static final class Tally {
        final LongAdder ok = new LongAdder();
        final LongAdder failed = new LongAdder();
        final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

        void fail(Throwable failure) {
            failed.increment();
            firstFailure.compareAndSet(null, failure);
        }
    }

    static Backend create(String name, int threads, int window) {
        // All threads' windows together never exceed the writer queue (20 threads x 2000 would overflow 10,000).
        int cableWindow = cableWindow(threads, window);
        return switch (name) {
            case "memory" -> new CableBackend(name, null, cableWindow);
            case "h2", "postgresql", "mariadb" -> new CableBackend(name, name, cableWindow);
            case "postgresql-sql", "mariadb-sql" -> new SqlBackend(name, name.substring(0, name.indexOf('-')), threads);
            case "redis" -> new RedisBackend(name, threads, false, window);
            case "redis-pipelined" -> new RedisBackend(name, threads, true, window);
            default -> throw new IllegalArgumentException("Unknown backend " + name);
        };
    }

    /** A cable sending thread's in-flight window: {@code window}, capped at the writer queue split over the threads. */
    static int cableWindow(int threads, int window) {
        return Math.max(1, Math.min(window, config().writer().queueCapacity() / threads));
    }

    abstract void start() throws Exception;

    /** Before each iteration (not timed). */
    abstract void clean() throws Exception;

    /** Sends {@code count} broadcasts from the calling thread ({@code thread} of the run) and waits for all. */
    abstract void run(int thread, int count, String[] channels, Tally tally) throws Exception;

    abstract void stop() throws Exception;

    /** Cable counters, or null for Redis. */
    CableStats stats() {
        return null;
    }

    static String prop(String name, String fallback) {
        String value = System.getProperty(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    /** Quarkus Cable through {@link CableEngine}: the memory adapter or the database adapter on a pooled datasource. */
    static final class CableBackend extends Backend {
        private final String name;
        private final String dbKind;
        private final int window;
        private AgroalDataSource dataSource;
        private CableEngine engine;

        CableBackend(String name, String dbKind, int window) {
            this.name = name;
            this.dbKind = dbKind;
            this.window = window;
        }

        @Override
        void start() throws Exception {
            CableRuntimeConfig config = config();
            if (dbKind == null) {
                engine = CableEngine.create(config, MemoryTransport.factory(config));
            } else {
                dataSource = dataSource(dbKind);
                engine = CableEngine.create(config, DatabaseTransport.factory(DataSourceUtil.DEFAULT_DATASOURCE_NAME,
                        () -> dataSource, SqlDialect.forDbKind(dbKind), config, databaseConfig()));
            }
            engine.start();
        }

        @Override
        void clean() throws SQLException {
            if (dataSource == null) {
                return;
            }
            try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
                connection.setAutoCommit(true);
                statement.executeUpdate("DELETE FROM cable_messages");
                statement.executeUpdate("DELETE FROM cable_channels");
            }
        }

        @Override
        void run(int thread, int count, String[] channels, Tally tally) throws InterruptedException {
            // A bounded in-flight window: the writer queue fails fast (QueueFull) rather than blocking the caller.
            Semaphore inFlight = new Semaphore(window);
            for (int i = 0; i < count; i++) {
                inFlight.acquire();
                engine.broadcast(channels[i % channels.length], PAYLOAD).whenComplete((ignored, failure) -> {
                    if (failure == null) {
                        tally.ok.increment();
                    } else {
                        tally.fail(failure);
                    }
                    inFlight.release();
                });
            }
            inFlight.acquire(window);
        }

        @Override
        CableStats stats() {
            return engine.stats();
        }

        @Override
        void stop() {
            if (engine != null) {
                engine.stop();
            }
            if (dataSource != null) {
                dataSource.close();
            }
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * The SQL broadcast: {@code cable_broadcast(channel, payload)} called by each thread on a JDBC connection of its
     * own in autocommit mode, so every broadcast is one transaction, as from a SQL client that publishes one event at
     * a time. A cable node on the same database runs beside it (it installs the routine, and its poller reads what the
     * calls write), but the broadcasts do not go through its writer: a call counts once it returned (committed).
     */
    static final class SqlBackend extends Backend {
        private final String name;
        private final String dbKind;
        private final int threads;
        private final CableBackend node;
        private final List<Connection> connections = new ArrayList<>();

        SqlBackend(String name, String dbKind, int threads) {
            this.name = name;
            this.dbKind = dbKind;
            this.threads = threads;
            this.node = new CableBackend(dbKind, dbKind, 1);
        }

        @Override
        void start() throws Exception {
            node.start();
            for (int i = 0; i < threads; i++) {
                Connection connection = java.sql.DriverManager.getConnection(jdbcUrl(dbKind), user(dbKind),
                        password(dbKind));
                connection.setAutoCommit(true);
                connections.add(connection);
            }
        }

        @Override
        void clean() throws SQLException {
            node.clean();
        }

        @Override
        void run(int thread, int count, String[] channels, Tally tally) {
            String call = dbKind.equals("postgresql") ? "SELECT cable_broadcast(?, ?)" : "CALL cable_broadcast(?, ?)";
            try (java.sql.PreparedStatement statement = connections.get(thread).prepareStatement(call)) {
                for (int i = 0; i < count; i++) {
                    statement.setString(1, channels[i % channels.length]);
                    statement.setString(2, PAYLOAD);
                    try {
                        statement.execute();
                        tally.ok.increment();
                    } catch (SQLException e) {
                        tally.fail(e);
                    }
                }
            } catch (SQLException e) {
                tally.fail(e);
            }
        }

        @Override
        void stop() throws Exception {
            for (Connection connection : connections) {
                connection.close();
            }
            node.stop();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** The baseline: Redis PUBLISH with Jedis, one connection per thread. */
    static final class RedisBackend extends Backend {
        private final String name;
        private final int threads;
        private final boolean pipelined;
        private final int window;
        private final List<Jedis> connections = new ArrayList<>();

        RedisBackend(String name, int threads, boolean pipelined, int window) {
            this.name = name;
            this.threads = threads;
            this.pipelined = pipelined;
            this.window = window;
        }

        @Override
        void start() {
            String host = prop("bench.redis.host", "127.0.0.1");
            int port = Integer.parseInt(prop("bench.redis.port", "6379"));
            for (int i = 0; i < threads; i++) {
                Jedis jedis = new Jedis(host, port);
                jedis.ping();
                connections.add(jedis);
            }
        }

        @Override
        void clean() {
        }

        @Override
        void run(int thread, int count, String[] channels, Tally tally) {
            Jedis jedis = connections.get(thread);
            if (!pipelined) {
                // Synchronous: each PUBLISH waits for its reply, like Rails' Redis adapter and the cache benchmark.
                for (int i = 0; i < count; i++) {
                    try {
                        jedis.publish(channels[i % channels.length], PAYLOAD);
                        tally.ok.increment();
                    } catch (RuntimeException e) {
                        tally.fail(e);
                    }
                }
                return;
            }
            // Pipelined in windows of the same size as Cable's in-flight window: the asynchronous comparison.
            int i = 0;
            while (i < count) {
                int n = Math.min(window, count - i);
                try {
                    Pipeline pipeline = jedis.pipelined();
                    for (int k = 0; k < n; k++, i++) {
                        pipeline.publish(channels[i % channels.length], PAYLOAD);
                    }
                    pipeline.sync();
                    tally.ok.add(n);
                } catch (RuntimeException e) {
                    for (int k = 0; k < n; k++) {
                        tally.fail(e);
                    }
                }
            }
        }

        @Override
        void stop() {
            connections.forEach(Jedis::close);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * The cable's configuration mapping with its defaults, plus the bench's knobs when set: {@code bench.queueCapacity}
     * and the diagnostic {@code bench.batchSize}, {@code bench.batchDelayMs}, {@code bench.autotrim}, {@code bench.wakeup}
     * ({@code none} measures the writer without the doorbell's ringer) and {@code bench.ring} (when the doorbell rings).
     */
    static CableRuntimeConfig config() {
        return settings().getConfigMapping(CableRuntimeConfig.class);
    }

    /** The database adapter's mapping, from the same settings as {@link #config()}. */
    static CableDatabaseConfig databaseConfig() {
        return settings().getConfigMapping(CableDatabaseConfig.class);
    }

    private static SmallRyeConfig settings() {
        // Fresh databases, and no Quarkus launch mode to pick the schema strategy from: the cable creates its tables.
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder().addDiscoveredConverters()
                .withMapping(CableRuntimeConfig.class).withMapping(CableDatabaseConfig.class)
                .withDefaultValue("quarkus.cable.schema.strategy", "update");
        Map.of("bench.queueCapacity", "quarkus.cable.writer.queue-capacity",
                "bench.batchSize", "quarkus.cable.writer.batch-size",
                "bench.autotrim", "quarkus.cable.trim.enabled",
                "bench.wakeup", "quarkus.cable.wakeup.mode",
                "bench.ring", "quarkus.cable.wakeup.ring").forEach((knob, property) -> {
                    String value = prop(knob, null);
                    if (value != null) {
                        builder.withDefaultValue(property, value);
                    }
                });
        String delay = prop("bench.batchDelayMs", null);
        if (delay != null) {
            builder.withDefaultValue("quarkus.cable.writer.batch-delay", delay + "ms");
        }
        return builder.build();
    }

    /** An Agroal pool opened directly (as Quarkus does, without the Quarkus wiring). */
    static AgroalDataSource dataSource(String dbKind) throws SQLException {
        String url = jdbcUrl(dbKind);
        String user = user(dbKind);
        String password = password(dbKind);
        AgroalDataSourceConfigurationSupplier config = new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(pool -> pool
                        .initialSize(2)
                        .minSize(2)
                        .maxSize(8)
                        .acquisitionTimeout(Duration.ofSeconds(10))
                        .connectionFactoryConfiguration(factory -> {
                            factory.jdbcUrl(url);
                            if (user != null) {
                                factory.principal(new NamePrincipal(user));
                            }
                            if (password != null) {
                                factory.credential(new SimplePassword(password));
                            }
                            return factory;
                        }));
        return AgroalDataSource.from(config);
    }

    static String jdbcUrl(String dbKind) {
        return switch (dbKind) {
            case "h2" -> prop("bench.h2.url", "jdbc:h2:mem:cable_bench;DB_CLOSE_DELAY=-1");
            case "postgresql" -> prop("bench.postgresql.url", "jdbc:postgresql://127.0.0.1:5432/test");
            case "mariadb" -> prop("bench.mariadb.url", "jdbc:mariadb://127.0.0.1:3306/test");
            default -> throw new IllegalArgumentException(dbKind);
        };
    }

    static String user(String dbKind) {
        return switch (dbKind) {
            case "h2" -> prop("bench.h2.user", "sa");
            case "postgresql" -> prop("bench.postgresql.user", "postgres");
            case "mariadb" -> prop("bench.mariadb.user", "root");
            default -> null;
        };
    }

    static String password(String dbKind) {
        return System.getProperty("bench." + dbKind.toLowerCase(Locale.ROOT) + ".password", "");
    }
}
