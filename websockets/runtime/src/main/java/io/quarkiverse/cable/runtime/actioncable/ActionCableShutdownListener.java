package io.quarkiverse.cable.runtime.actioncable;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.runtime.shutdown.ShutdownListener;

/**
 * Tells every Action Cable client {@code disconnect} with reason {@code server_restart} and {@code reconnect: true} when
 * the application begins to shut down. It runs in the pre-shutdown phase: by the time {@code ShutdownEvent} observers
 * run, the HTTP server has already closed its connections and the frame could no longer be written.
 */
public class ActionCableShutdownListener implements ShutdownListener {

    private static final long FLUSH_WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);

    @Override
    public void preShutdown(ShutdownNotification notification) {
        try (InstanceHandle<ActionCableServer> server = Arc.container().instance(ActionCableServer.class)) {
            if (server.isAvailable()) {
                server.get().disconnectAll("server_restart", true);
                // Clients answer the close frame; give them a moment before the HTTP server goes away.
                long deadline = System.nanoTime() + FLUSH_WAIT_NANOS;
                while (server.get().count() > 0 && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                }
            }
        } finally {
            notification.done();
        }
    }
}
