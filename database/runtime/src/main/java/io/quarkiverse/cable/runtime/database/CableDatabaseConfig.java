package io.quarkiverse.cable.runtime.database;

import java.time.Duration;
import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigDocDefault;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The database adapter's settings: polling, trimming, the schema and the wake-ups. Under {@code quarkus.cable} like
 * the core's ({@code CableRuntimeConfig}, which still holds the writer's and the history's: the core reads them too);
 * validated once, by {@link DatabaseConfigCheck}, when the adapter's transport is built.
 */
@ConfigMapping(prefix = "quarkus.cable")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface CableDatabaseConfig {

    /**
     * How often the poller looks for new messages when nothing wakes it earlier. Broadcasts made on this node wake
     * it at once; broadcasts from other nodes wake it through `wakeup.mode` (PostgreSQL doorbell, MariaDB/MySQL
     * probe), and are seen within this interval when no wake-up arrives. This is the correctness path.
     */
    @WithDefault("100ms")
    Duration pollingInterval();

    /**
     * The largest number of messages one poll reads. When a poll returns this many, the poller reads again at once.
     */
    @WithDefault("1000")
    int pollBatchSize();

    /**
     * Trimming: the deletion of expired messages.
     */
    Trim trim();

    interface Trim {
        /**
         * Whether the cable trims expired messages itself, in proportion to writes (Solid Cable's `autotrim`). Off, the
         * application deletes them (`CableMessageEntity.deleteOlderThan(cutoff)`, with the Hibernate ORM entity).
         */
        @WithDefault("true")
        boolean enabled();

        /**
         * How many expired messages one trim deletes at most.
         */
        @WithDefault("100")
        int batchSize();

        /**
         * How long the rows of the cable's live-only channels are kept: whispers (`cable:whispers`), presence events
         * (`cable:presence`) and disconnect commands (`cable:control:disconnect`). Every node's poller delivers them
         * live and nothing ever replays them (clients may not stream these channels, and a node starts at the newest
         * row), so they are kept only long enough for every live node's poller to have read them, not for
         * `message-retention`. The trimmer deletes them on a schedule of its own (every half of this, whatever is
         * written, and also when `trim.enabled` is false), so a row lives at most about 1.5 times this. A node whose
         * poller is further behind than this (or whose clock is this far ahead of the writer's) misses them: whispers
         * and live presence frames are best effort; the presence sets themselves are not messages and are not
         * affected. Keep it well above the longest poll lag a node may have (`cable.poll.lag`); the default is 30 s.
         * With `presence.in-stream`, a join's or leave's copy in its
         * channel's stream is an ordinary message, kept for `message-retention`.
         */
        @WithDefault("30s")
        Duration liveRetention();
    }

    /**
     * Schema settings.
     */
    Schema schema();

    /**
     * How other nodes' broadcasts wake this node's poller before `polling-interval` ends (see the Configuration and
     * Performance pages).
     */
    Wakeup wakeup();

    interface Wakeup {
        /**
         * `auto` picks by database: PostgreSQL `notify`, MariaDB and MySQL `probe`, H2 `none`. `notify` (PostgreSQL
         * only): after each committed batch the writer sends one `NOTIFY`, and every node `LISTEN`s on one dedicated
         * connection outside the pool and polls at once. `probe`: every `probe-interval`, while the node subscribes
         * to a channel, a single-row read of the newest committed id; a poll runs when it moved. `none`: other
         * nodes' broadcasts are seen at the next poll. Polling stays the correctness path in every mode: a lost
         * wake-up costs at most one `polling-interval`.
         */
        @WithDefault("auto")
        WakeupMode mode();

        /**
         * How often the `probe` mode reads the newest committed id while this node subscribes to a channel (it does
         * not query with no subscribed channel, nor when a poll completed within the interval). About half of it is
         * added to the average cross-node latency; each node runs at most 1 s / interval cheap queries.
         */
        @WithDefault("10ms")
        Duration probeInterval();

        /**
         * When the `notify` doorbell rings. `in-transaction`: the batch's first statement queues the notification
         * and PostgreSQL sends it with the commit (and only if it commits), so a ring costs no transaction and no
         * thread hop of its own; the commit also takes PostgreSQL's cluster-wide notification lock. `after-commit`: a
         * ringer thread sends `pg_notify` in a transaction of its own on a pooled connection right after each
         * committed batch, so the batch's transaction is exactly what it is without the doorbell: choose it where
         * other applications on the database `NOTIFY` heavily, or where a `LISTEN`ing session of theirs may stall
         * PostgreSQL's notification queue until it is full, which fails the commits that notify. The Performance
         * page has the measurements behind the default.
         */
        @WithDefault("in-transaction")
        DoorbellRing ring();

        /**
         * The longest wait between attempts to reconnect the doorbell's `LISTEN` connection (it starts at 100 ms and
         * doubles), and between retries of a failing probe.
         */
        @WithDefault("10s")
        Duration maxReconnectBackoff();

        /**
         * How often the idle `LISTEN` connection is checked with a round trip, so a connection that died silently
         * (a network drop without a reset) is replaced.
         */
        @WithDefault("15s")
        Duration listenerCheckInterval();

        /**
         * A JDBC URL for the doorbell's `LISTEN` connection only, when the datasource's URL does not reach the
         * primary directly: behind PgBouncer in transaction mode, RDS Proxy and other poolers, `LISTEN` is accepted
         * and every notification is dropped. Point it at the primary itself; with a multi-host URL and
         * `targetServerType=primary` the listener reconnects to the new primary after a failover. Unset: the
         * datasource's URL, properties and credentials (outside its pool).
         */
        Optional<String> jdbcUrl();

        /** The user of the doorbell's own connection when `jdbc-url` is set; unset: the datasource's user. */
        Optional<String> username();

        /** The password of the doorbell's own connection when `jdbc-url` is set; unset: the datasource's password. */
        Optional<String> password();
    }

    interface Schema {
        /**
         * What the cable does with its tables at startup. `update` creates missing tables and adds the columns and
         * indexes a newer version of the cable needs (never dropping or changing anything; needs DDL privileges).
         * `validate` checks that they all exist and otherwise fails startup, printing the statements to run. `none`
         * touches nothing: Flyway or Liquibase own the schema (the SQL is in the documentation).
         */
        @ConfigDocDefault("update in dev and test mode, validate in production")
        Optional<SchemaStrategy> strategy();
    }
}
