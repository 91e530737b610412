package io.quarkiverse.cable.runtime;

import java.util.concurrent.locks.LockSupport;

/**
 * The lifecycle every background loop of the cable shares (writer, poller, trimmer): one virtual thread, a running
 * flag its loop checks, a wake-up, and a bounded stop. The loop parks when idle; {@link #wake()} and {@link #stop}
 * unpark it.
 */
public final class Worker {

    private final String role;
    private final Runnable loop;
    private volatile boolean running;
    private volatile Thread thread;

    /** {@code role} names the worker in thread names ({@code cable-<role>-<datasource>}) and in liveness data. */
    public Worker(String role, Runnable loop) {
        this.role = role;
        this.loop = loop;
    }

    public String role() {
        return role;
    }

    /** Starts the loop on a virtual thread named {@code cable-<role>-<suffix>}. */
    public void start(String suffix) {
        running = true;
        thread = Thread.ofVirtual().name("cable-" + role + "-" + suffix).start(loop);
    }

    /** True from {@link #start} until {@link #stop}: the loop runs while this holds. */
    public boolean running() {
        return running;
    }

    /** Unparks the loop so it looks for work now. */
    public void wake() {
        Thread current = thread;
        if (current != null) {
            LockSupport.unpark(current);
        }
    }

    /**
     * Clears the running flag, wakes the loop and waits up to {@code timeoutMillis} for it to end. Returns false when
     * it is still running.
     */
    public boolean stop(long timeoutMillis) {
        running = false;
        Thread current = thread;
        if (current == null) {
            return true;
        }
        LockSupport.unpark(current);
        try {
            current.join(timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !current.isAlive();
    }

    public boolean isAlive() {
        Thread current = thread;
        return current != null && current.isAlive();
    }

    /** The thread, or null before {@link #start}. */
    public Thread thread() {
        return thread;
    }
}
