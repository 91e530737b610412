package io.quarkiverse.cable.runtime.core;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.spi.CableThreads;

/**
 * Runs tasks in the order they were submitted, one at a time, on a virtual thread that exists only while tasks wait, so
 * neither an event loop nor the poller ever waits for user code. The one drain loop of the cable: an Action Cable
 * connection's commands and a listener's messages both run on one.
 * <p>
 * Whatever a task throws (an {@link Error}, or a checked exception thrown sneakily by user code or a proxy) is handed to
 * {@code onFailure} and the next task runs: a drain that died would leave {@code draining} set with nobody draining,
 * and every later task (an Action Cable welcome, a listener's next message) would wait forever.
 */
public final class SerialExecutor implements Executor {

    private static final Logger LOG = Logger.getLogger("io.quarkiverse.cable");

    private final String threadName;
    private final Consumer<Throwable> onFailure;
    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();

    /**
     * @param threadName the name of the drain threads (thread dumps look for it)
     * @param onFailure receives what a task threw; what it throws itself is logged
     */
    public SerialExecutor(String threadName, Consumer<Throwable> onFailure) {
        this.threadName = threadName;
        this.onFailure = onFailure;
    }

    @Override
    public void execute(Runnable task) {
        queue.add(task);
        if (draining.compareAndSet(false, true)) {
            try {
                CableThreads.startVirtual(threadName, this::drain);
            } catch (Throwable e) {
                // No thread (out of memory): the next submit tries again rather than finding the flag stuck.
                draining.set(false);
                throw e;
            }
        }
    }

    private void drain() {
        while (true) {
            Runnable task;
            while ((task = queue.poll()) != null) {
                run(task);
            }
            draining.set(false);
            // A task submitted after the last poll but before the flag was cleared would otherwise wait forever.
            if (queue.isEmpty() || !draining.compareAndSet(false, true)) {
                return;
            }
        }
    }

    private void run(Runnable task) {
        try {
            task.run();
        } catch (Throwable failure) {
            try {
                onFailure.accept(failure);
            } catch (Throwable reporting) {
                LOG.errorf(reporting, "Cable %s task failed (%s) and reporting the failure failed too", threadName,
                        failure);
            }
        }
    }
}
