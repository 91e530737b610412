package io.quarkiverse.cable.runtime.observability;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.spi.Failure;
import io.quarkiverse.cable.spi.TransportStatus;
import io.quarkus.runtime.StartupEvent;

/**
 * Publishes the cable's figures to Micrometer. The deployment registers this bean only when the Micrometer
 * extension is present and {@code quarkus.cable.metrics.enabled} is true; without it no class here is loaded, and
 * the data path's {@link CableStats.Observer} stays a no-op. Every name is documented on the Observability page.
 */
@Singleton
class CableMetrics {

    /** The {@code reason} of the {@code cable.history.replays} series that are not refusals. */
    static final String NO_REASON = "none";

    @Inject
    CableObservability observability;

    @Inject
    MeterRegistry registry;

    void register(@Observes StartupEvent event) {
        CableStats stats = observability.stats();
        counter("cable.broadcasts", "Broadcasts accepted (valid, handed to the writer or the memory adapter)",
                stats, CableStats::broadcasts);
        counter("cable.broadcasts.committed", "Broadcasts committed to the database (memory adapter: delivered)",
                stats, CableStats::committed);
        counter("cable.deliveries", "Messages handed to local subscribers (one per message and subscriber)", stats,
                CableStats::deliveries);
        counter("cable.slow.consumer.disconnects",
                "Subscriptions closed because their listener fell more than subscriber-buffer messages behind", stats,
                s -> s.failures(Failure.SLOW_CONSUMER));
        for (Failure kind : Failure.values()) {
            FunctionCounter.builder("cable.errors", stats, s -> s.failures(kind))
                    .description("Failures counted (and logged at most once per second) by kind")
                    .tag("kind", kind.name().toLowerCase(Locale.ROOT))
                    .register(registry);
        }
        // Clients refused by the bounds of what one client may make the server hold or do (Security page).
        for (CableStats.Refusal reason : CableStats.Refusal.values()) {
            FunctionCounter.builder("cable.limits.refusals", stats, s -> s.refusals(reason))
                    .description(
                            "Clients refused (disconnected, a subscription rejected, a whisper dropped) by a bound, by reason")
                    .tag("reason", reason.tag())
                    .register(registry);
        }
        // Recoveries: served (the whole history replayed), refused by reason, failed (history not readable). Every
        // series of one name carries the same tag keys (served and failed have reason "none"): Prometheus' registry
        // silently drops a series whose keys differ from the first one registered under its name.
        FunctionCounter.builder("cable.history.replays", stats, CableStats::replaysServed)
                .description("Recoveries whose whole history was replayed").tag("result", "served")
                .tag("reason", NO_REASON).register(registry);
        for (CableException.HistoryUnavailable.Reason reason : CableException.HistoryUnavailable.Reason.values()) {
            FunctionCounter.builder("cable.history.replays", stats, s -> s.replaysRejected(reason))
                    .description("Recoveries refused because the history was not all there, by reason")
                    .tag("result", "rejected").tag("reason", reason.name().toLowerCase(Locale.ROOT))
                    .register(registry);
        }
        FunctionCounter.builder("cable.history.replays", stats, CableStats::replayFailures)
                .description("Recoveries whose history could not be read").tag("result", "failed")
                .tag("reason", NO_REASON).register(registry);
        counter("cable.history.messages.replayed", "Messages replayed to recovering subscribers", stats,
                CableStats::messagesReplayed);
        counter("cable.history.reads", "History steps that read the database (identical concurrent ones read once)",
                stats, CableStats::historyReads);
        counter("cable.history.replays.coalesced",
                "History steps served by an identical read already in flight, without a query of their own", stats,
                CableStats::replaysCoalesced);
        counter("cable.history.replays.over.budget", "Client replays refused as busy because the node's replays in"
                + " flight filled history.max-replay-bytes-in-flight or history.max-replays-in-flight (also counted in"
                + " cable.history.replays, rejected, busy)", stats, CableStats::replaysOverBudget);
        Gauge.builder("cable.history.replay.in.flight", observability,
                o -> o.engine().replayBytesInFlight())
                .description("Bytes of replayed messages admitted to clients and not yet handed to their sockets")
                .baseUnit("bytes").register(registry);
        counter("cable.identity.disconnect.commands",
                "Remote disconnect commands (CableIdentities.disconnect) this node read and applied", stats,
                CableStats::disconnectCommands);
        counter("cable.identity.disconnected.sessions",
                "Sessions of this node closed by a remote disconnect", stats, CableStats::remotelyDisconnected);
        counter("cable.sse.slow.consumer.disconnects",
                "SSE streams closed as too slow: over sse.max-pending-bytes, or stalled for websocket.stall-timeout",
                stats, CableStats::sseSlowConsumers);
        counter("cable.sse.max.duration.ends", "SSE streams ended (a complete response) because they lasted"
                + " quarkus.cable.sse.max-stream-duration; their clients reconnect with Last-Event-ID", stats,
                CableStats::sseMaxDurationEnds);
        // The application's figures: the cable's own readers (disconnect commands, whispers, presence events) run on
        // every node from startup, and counting them made an idle node report 3 channels and 3 subscribers.
        Gauge.builder("cable.channels", observability, o -> o.engine().applicationChannelCount())
                .description("Channels the application subscribes on this node (the cable's internal ones excluded)")
                .register(registry);
        Gauge.builder("cable.subscribers", observability, o -> o.engine().applicationSubscriberCount())
                .description("The application's subscriptions on this node (the cable's internal readers excluded)")
                .register(registry);

        TransportStatus transport = observability.transport().status();
        if (transport.store().isEmpty()) {
            return;
        }
        counter("cable.polls", "Polls that ran a query", stats, CableStats::polls);
        counter("cable.trim.rows", "Expired messages deleted by trimming", stats, CableStats::rowsTrimmed);
        counter("cable.writer.conflicts", "Writer batches re-run after losing a conflict with another transaction "
                + "(SQLState 40001/40P01, MariaDB 1213: Galera certification failures)", stats,
                CableStats::conflictRetries);
        counter("cable.database.identity.changes", "Times the poller found the database changed identity (a failover"
                + " or restore): every channel got a new epoch", stats, CableStats::databaseIdentityChanges);
        counter("cable.database.lost.messages", "Messages this node had read that were not on the database any more"
                + " after an identity change (acknowledged, then lost in a failover)", stats,
                CableStats::messagesLostInFailover);
        counter("cable.connections.unresponsive", "WebSocket connections closed (1001, cable: no pong) because they sent"
                + " nothing, not even a pong, for quarkus.cable.websocket.pong-timeout", stats,
                CableStats::unresponsiveConnections);
        counter("cable.presence.sessions.swept", "Presence sessions of this node found in the database without a live"
                + " connection and handed to the TTL by the sweep (each one a defect the sweep kept from leaving a"
                + " ghost)", stats, CableStats::presenceSessionsSwept);
        Gauge.builder("cable.writer.queue.depth", transport, t -> progress(t).writerQueueDepth())
                .description("Broadcasts waiting for the writer").register(registry);
        TimeGauge.builder("cable.writer.oldest.age", transport, TimeUnit.NANOSECONDS, t -> {
            long oldest = progress(t).writerOldestQueuedAtNanos();
            return oldest == 0 ? 0 : Math.max(0, System.nanoTime() - oldest);
        }).description("How long the writer has been busy with its current batch, from its oldest broadcast's queueing;"
                + " 0 when idle").register(registry);
        TimeGauge.builder("cable.poller.last.success.age", transport, TimeUnit.NANOSECONDS,
                t -> System.nanoTime() - progress(t).lastPollNanos())
                .description("Time since the poller last completed a cycle").register(registry);
        Gauge.builder("cable.poller.cursor.lag", observability,
                o -> o.probe().reachable() ? o.cursorLag(o.probe(), progress(transport)) : Double.NaN)
                .description("Message ids this node's poller is behind the newest committed id (probed at most once"
                        + " a second)")
                .register(registry);
        Gauge.builder("cable.trim.debt", observability, o -> {
            CableObservability.Probe probe = o.probe();
            return probe.reachable() ? probe.trimDebt() : Double.NaN;
        }).description("Messages older than message-retention, counted up to health.max-trim-debt + 1 (probed at most"
                + " once a second)").register(registry);

        WakeupMetrics.register(registry, transport.wakeup());

        Timer lag = Timer.builder("cable.poll.lag")
                .description("Time from a message's write (created_at) to its hand-off to local subscribers")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(registry);
        Timer duration = Timer.builder("cable.poll.duration")
                .description("Duration of one poll query, borrowing the connection included")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry);
        DistributionSummary rows = DistributionSummary.builder("cable.poll.rows")
                .description("Messages read by one poll").register(registry);
        DistributionSummary batches = DistributionSummary.builder("cable.writer.batch.size")
                .description("Broadcasts committed in one writer transaction").register(registry);
        stats.observe(new CableStats.Observer() {
            @Override
            public void polled(long durationNanos, int count) {
                duration.record(durationNanos, TimeUnit.NANOSECONDS);
                rows.record(count);
            }

            @Override
            public void pollLag(long lagMillis) {
                lag.record(lagMillis, TimeUnit.MILLISECONDS);
            }

            @Override
            public void batchCommitted(int size) {
                batches.record(size);
            }
        });
    }

    /** Metrics register after startup, so a database transport has its writer and poller by now. */
    private static TransportStatus.Progress progress(TransportStatus transport) {
        return transport.progress().orElseThrow();
    }

    private void counter(String name, String description, CableStats stats, ToDoubleFunction<CableStats> value) {
        FunctionCounter.builder(name, stats, value).description(description).register(registry);
    }
}
