package io.quarkiverse.cable.spi;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

/**
 * The one place the cable makes threads and executors (runtime's LayersTest refuses any other caller): each thread
 * named {@code cable-...} for thread dumps. architecture.adoc lists every one of them, what runs there, its bound, how
 * it stops and what context it carries. Here in the SPI because the background loops' {@link Worker} lives here and
 * the SPI may use nothing of the core; the core, the adapters and the front ends all take their threads from it.
 * <p>
 * No thread made here carries the application's context implicitly beyond what the JDK does (inheritable thread
 * locals, among them the log MDC of a plain thread, and the context class loader): what the cable carries on purpose
 * is explicit, a callback's request context and identity, a broadcast's log MDC to in-process listeners.
 */
public final class CableThreads {

    private CableThreads() {
    }

    /** Starts {@code task} on a new virtual thread named {@code name}. */
    public static Thread startVirtual(String name, Runnable task) {
        return Thread.ofVirtual().name(name).start(task);
    }

    /**
     * Starts {@code task} on a new platform daemon thread named {@code name}: for the few long-lived loops on the path
     * of every message (see {@link Worker}), which must never queue for a carrier thread behind virtual threads
     * busy with CPU work.
     */
    public static Thread startPlatform(String name, Runnable task) {
        Thread thread = daemon(name).newThread(task);
        thread.start();
        return thread;
    }

    /** Virtual threads, all named {@code name}. */
    public static ThreadFactory virtual(String name) {
        return Thread.ofVirtual().name(name).factory();
    }

    /** Platform daemon threads named {@code name}: for timers that must not keep the JVM alive. */
    public static ThreadFactory daemon(String name) {
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** A timer with one thread of {@code threads}. */
    public static ScheduledThreadPoolExecutor timer(ThreadFactory threads) {
        return new ScheduledThreadPoolExecutor(1, threads);
    }

    /** A new unnamed virtual thread for every task; its owner bounds how many it submits at once. */
    public static ExecutorService virtualPerTask() {
        return Executors.newVirtualThreadPerTaskExecutor();
    }
}
