package io.quarkiverse.cable.bench.server;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;
import org.postgresql.ds.PGSimpleDataSource;

import io.quarkiverse.cable.Cable;

/**
 * The baseline of Rails' PostgreSQL adapter: {@code pg_notify} on a few plain JDBC connections, one LISTEN connection
 * that hands every notification back to this process's subscribers through the memory cable.
 * <p>
 * All streams share one notification channel and the payload carries the stream: {@code stream + "\n" + json}.
 * Channel names are identifiers of at most 63 bytes while stream names are client-chosen and longer; and LISTEN per
 * stream would have to follow every subscribe and unsubscribe, which the cable's local fan-out already filters. So,
 * like the Redis relay's pattern subscription, every node hears every message.
 */
@Singleton
@Typed(PgNotifyRelay.class)
public class PgNotifyRelay implements Relay {

    private static final Logger LOG = Logger.getLogger(PgNotifyRelay.class);

    static final String CHANNEL = "cable_bench";

    /** PostgreSQL refuses a NOTIFY payload of this many bytes or more. */
    static final int MAX_PAYLOAD_BYTES = 8000;

    private final RelayCounters counters = new RelayCounters();
    private NotifySenders senders;
    private NotificationListener listener;

    @Inject
    BenchConfig config;

    @Inject
    Cable cable;

    @PostConstruct
    void start() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(config.pgnotify().url());
        try {
            listener = new NotificationListener(dataSource, CHANNEL, this::deliverLocally);
            senders = new NotifySenders(dataSource, config.pgnotify().poolSize());
        } catch (SQLException e) {
            stop();
            throw new IllegalStateException("pgnotify relay: cannot connect to " + config.pgnotify().url()
                    + " (bench.pgnotify.url): " + e.getMessage(), e);
        }
        LOG.infof("pgnotify relay: listening on %s, %d sender connections", CHANNEL, config.pgnotify().poolSize());
    }

    @PreDestroy
    void stop() {
        if (listener != null) {
            try {
                listener.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (senders != null) {
            senders.close();
        }
    }

    @Override
    public void publish(String stream, String jsonPayload) {
        String payload = stream + "\n" + jsonPayload;
        int bytes = payload.getBytes(StandardCharsets.UTF_8).length;
        if (bytes >= MAX_PAYLOAD_BYTES) {
            // Refused rather than truncated: a cut JSON payload would reach clients as garbage.
            counters.refused();
            LOG.errorf("pgnotify relay: refused a %d-byte notification for stream %s: PostgreSQL NOTIFY payloads"
                    + " (stream name, newline and JSON) must be shorter than %d bytes", bytes, stream,
                    MAX_PAYLOAD_BYTES);
            return;
        }
        // Waits for PostgreSQL, as Rails' adapter does; that keeps one publisher's messages in order.
        try {
            senders.send(CHANNEL, payload);
            counters.published();
        } catch (SQLException e) {
            counters.failed();
            LOG.warnf("pgnotify relay: NOTIFY for stream %s failed: %s", stream, e.getMessage());
        } catch (InterruptedException e) {
            counters.failed();
            Thread.currentThread().interrupt();
        }
    }

    private void deliverLocally(String payload) {
        // JSON encoded by the channels never holds a raw newline, so the last one ends the stream name (which may).
        int newline = payload.lastIndexOf('\n');
        if (newline < 0) {
            counters.failed();
            LOG.warnf("pgnotify relay: ignored a notification on %s without a stream name", CHANNEL);
            return;
        }
        counters.relayedIn();
        cable.broadcast(payload.substring(0, newline), payload.substring(newline + 1))
                .whenComplete((done, failure) -> {
                    if (failure != null) {
                        counters.failed();
                    }
                });
    }

    @Override
    public boolean ready() {
        return listener != null && listener.listening();
    }

    @Override
    public RelayCounters counters() {
        return counters;
    }
}
