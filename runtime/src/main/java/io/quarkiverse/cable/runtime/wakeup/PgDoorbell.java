package io.quarkiverse.cable.runtime.wakeup;

import java.util.List;
import java.util.UUID;

import io.quarkiverse.cable.runtime.Worker;

/**
 * PostgreSQL's doorbell: after each committed batch the {@link DoorbellRinger} sends one NOTIFY; the
 * {@link DoorbellListener} of every node hears it and wakes its poller, which then reads the rows as usual.
 */
final class PgDoorbell implements Wakeup {

    private final WakeupStats stats;
    private final DoorbellRinger ringer;
    private final DoorbellListener listener;
    private final String threadSuffix;

    PgDoorbell(WakeupParts parts, UnpooledConnections connections) {
        this.stats = parts.stats();
        // Names this node's rings so its own listener can skip them; new for every start.
        String selfId = UUID.randomUUID().toString();
        this.ringer = new DoorbellRinger(parts.pool(), parts.dialect(), selfId, stats, parts.failures());
        this.listener = new DoorbellListener(connections, parts.dialect(), selfId, parts.wake(), parts.settings(),
                stats, parts.failures());
        this.threadSuffix = parts.threadSuffix();
    }

    @Override
    public String mode() {
        return "notify";
    }

    @Override
    public void start() {
        listener.start(threadSuffix);
        ringer.start(threadSuffix);
    }

    @Override
    public void committed() {
        ringer.ring();
    }

    @Override
    public void stop(long timeoutMillis) {
        ringer.stop(timeoutMillis);
        listener.stop(timeoutMillis);
    }

    @Override
    public WakeupStats stats() {
        return stats;
    }

    @Override
    public List<Worker> workers() {
        return List.of(listener.worker(), ringer.worker());
    }

    @Override
    public boolean connected() {
        return stats.connected;
    }
}
