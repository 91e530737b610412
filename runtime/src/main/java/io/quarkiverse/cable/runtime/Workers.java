package io.quarkiverse.cable.runtime;

import java.util.concurrent.locks.LockSupport;

/** Starting and stopping the cable's background virtual threads (writer, poller, trimmer). */
public final class Workers {

    private Workers() {
    }

    public static Thread start(String name, Runnable loop) {
        return Thread.ofVirtual().name(name).start(loop);
    }

    /**
     * Wakes a parked worker whose loop flag was already cleared, and waits up to {@code timeoutMillis} for it to end.
     * Returns false when it is still running.
     */
    public static boolean wakeAndJoin(Thread worker, long timeoutMillis) {
        if (worker == null) {
            return true;
        }
        LockSupport.unpark(worker);
        try {
            worker.join(timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !worker.isAlive();
    }
}
