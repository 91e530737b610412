package io.quarkiverse.cable.spi;

import java.util.concurrent.atomic.LongAdder;

/** Counters of the wake-up signal, read by the health check and the metrics. */
public final class WakeupStats {

    /** NOTIFYs this node sent (at most one per committed batch; several batches may share one). */
    public final LongAdder ringsSent = new LongAdder();
    /** Notifications from other nodes that woke this node's poller. */
    public final LongAdder ringsHeard = new LongAdder();
    /** Times the listener connection was (re)established. */
    public final LongAdder listenerConnects = new LongAdder();
    /** Newest-id probes run. */
    public final LongAdder probes = new LongAdder();
    /** Probes that saw the newest id move and woke the poller. */
    public final LongAdder probesMoved = new LongAdder();
    /** Every notification the listener received, this node's own rings included (they prove the route works). */
    public final LongAdder notificationsReceived = new LongAdder();
    /**
     * True while the listener is connected but has heard nothing although polls keep finding rows: its connection
     * most likely goes through a pooler in transaction mode, which accepts {@code LISTEN} and drops notifications.
     */
    public volatile boolean silent;
    /** Whether the listener connection is up (notify mode only). */
    public volatile boolean connected;
}
