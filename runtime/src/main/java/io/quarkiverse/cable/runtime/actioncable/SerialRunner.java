package io.quarkiverse.cable.runtime.actioncable;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Runs one connection's tasks in order, one at a time, on a virtual thread started only while tasks wait: user code
 * (identification, channel callbacks, actions) never runs on an event loop or the poller.
 */
final class SerialRunner {

    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final Consumer<Throwable> onFailure;

    SerialRunner(Consumer<Throwable> onFailure) {
        this.onFailure = onFailure;
    }

    void submit(Runnable task) {
        queue.add(task);
        if (draining.compareAndSet(false, true)) {
            Thread.ofVirtual().name("cable-connection").start(this::drain);
        }
    }

    private void drain() {
        while (true) {
            Runnable task;
            while ((task = queue.poll()) != null) {
                try {
                    task.run();
                } catch (RuntimeException | Error e) {
                    onFailure.accept(e);
                }
            }
            draining.set(false);
            if (queue.isEmpty() || !draining.compareAndSet(false, true)) {
                return;
            }
        }
    }
}
