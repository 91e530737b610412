package io.quarkiverse.cable.spi;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The lifecycle every background loop of the cable shares (writer, poller, trimmer): one platform thread, a running
 * flag its loop checks, a wake-up, and a bounded stop. The loop waits in {@link #idle(long)}; {@link #wake()} and
 * {@link #stop} end that wait.
 * <p>
 * A platform thread, not a virtual one: the writer and the poller are on the path of every message, and a virtual
 * thread waits for a free carrier (one per core) behind virtual threads busy with CPU work, which hold theirs until
 * they block (history reads against an in-memory H2 never do). A replay storm kept every live delivery waiting that
 * way (architecture.adoc, "How it works").
 * <p>
 * A wake-up is a flag, not only an unpark: the loop's own work (JDBC socket reads, pool and driver locks) parks the
 * same thread, and an unpark that arrives then merely ends that inner wait and is used up. Relying on the park
 * permit alone, the loop then slept its whole interval with the work it was woken for waiting (a subscription left
 * unconfirmed for a polling interval, an hour where wake-ups carry the latency).
 */
public final class Worker {

    private final String role;
    private final Runnable loop;
    private final AtomicBoolean woken = new AtomicBoolean();
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

    /** Starts the loop on a platform daemon thread named {@code cable-<role>-<suffix>}. */
    public void start(String suffix) {
        running = true;
        thread = CableThreads.startPlatform("cable-" + role + "-" + suffix, loop);
    }

    /** True from {@link #start} until {@link #stop}: the loop runs while this holds. */
    public boolean running() {
        return running;
    }

    /** Makes the loop look for work now: its current or next {@link #idle(long)} returns at once. */
    public void wake() {
        woken.set(true);
        Thread current = thread;
        if (current != null) {
            LockSupport.unpark(current);
        }
    }

    /**
     * Waits up to {@code nanos}, unless {@link #wake()} was called since the last {@code idle} returned (also while the
     * loop was busy) or the worker is stopping. Returns whether it was woken.
     */
    public boolean idle(long nanos) {
        long deadline = System.nanoTime() + nanos;
        while (!woken.getAndSet(false)) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0 || !running) {
                return false;
            }
            LockSupport.parkNanos(this, remaining);
        }
        return true;
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
