package io.quarkiverse.cable.runtime.database;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.quarkiverse.cable.spi.Wakeup;
import io.quarkiverse.cable.spi.WakeupStats;
import io.quarkiverse.cable.spi.Worker;

/**
 * PostgreSQL's doorbell: each committed batch rings one NOTIFY, sent either by the {@link DoorbellRinger} after the
 * commit or by the batch's own transaction ({@link DoorbellRing}); the {@link DoorbellListener} of every node hears it
 * and wakes its poller, which then reads the rows as usual.
 */
final class PgDoorbell implements Wakeup {

    private final WakeupStats stats;
    /** Null when the batches' transactions ring themselves. */
    private final DoorbellRinger ringer;
    private final String selfId;
    private final DoorbellListener listener;
    private final String threadSuffix;

    PgDoorbell(WakeupParts parts, UnpooledConnections connections) {
        this.stats = parts.stats();
        // Names this node's rings so its own listener can skip them; new for every start.
        this.selfId = UUID.randomUUID().toString();
        this.ringer = parts.settings().ring() == DoorbellRing.AFTER_COMMIT
                ? new DoorbellRinger(parts.pool(), parts.dialect(), selfId, stats, parts.failures())
                : null;
        this.listener = new DoorbellListener(connections, parts.dialect(), selfId, parts.wake(), parts.settings(),
                stats, parts.failures(), parts.pollsWithRows());
        this.threadSuffix = parts.threadSuffix();
    }

    @Override
    public String mode() {
        return "notify";
    }

    @Override
    public void start() {
        listener.start(threadSuffix);
        if (ringer != null) {
            ringer.start(threadSuffix);
        }
    }

    @Override
    public void committed() {
        if (ringer != null) {
            ringer.ring();
        } else {
            // The commit itself sent the notification.
            stats.ringsSent.increment();
        }
    }

    @Override
    public Optional<String> ringInTransaction() {
        return ringer == null ? Optional.of(selfId) : Optional.empty();
    }

    @Override
    public void stop(long timeoutMillis) {
        if (ringer != null) {
            ringer.stop(timeoutMillis);
        }
        listener.stop(timeoutMillis);
    }

    @Override
    public WakeupStats stats() {
        return stats;
    }

    @Override
    public List<Worker> workers() {
        return ringer == null ? List.of(listener.worker()) : List.of(listener.worker(), ringer.worker());
    }

    @Override
    public boolean connected() {
        return stats.connected;
    }
}
