package io.quarkiverse.cable.runtime.core;

import java.util.Map;
import java.util.function.Supplier;

import org.jboss.logmanager.MDC;

/**
 * The log MDC entries of the thread a broadcast was made on, carried to this node's listeners of that broadcast when
 * the delivery is in-process (the memory adapter dispatches on the broadcasting thread), so what a listener logs names
 * the request that broadcast. A message read back from the database carries none: the poller dispatches it, on every
 * node alike.
 * <p>
 * Taken at the broadcast ({@link #capture}), it is current on the dispatching thread while the transport hands the
 * message to local subscribers ({@link #whileDispatching}), where a listener's mailbox takes it ({@link #dispatching})
 * along with the message, and restored around that listener's call ({@link #enter}, {@link #exit}). A thread with an
 * empty MDC makes none: the broadcast pays one emptiness check, each mailbox one thread-local read.
 * <p>
 * The MDC is the log manager's, which Quarkus keeps in the Vert.x context on a request's threads, so entries a
 * request put there (and the {@code traceId} and {@code spanId} Quarkus OpenTelemetry writes for logging) are found.
 */
final class BroadcastMdc {

    /** The entries of the broadcast being dispatched on this thread; set only while there are some. */
    private static final ThreadLocal<BroadcastMdc> DISPATCHING = new ThreadLocal<>();

    private final Map<String, Object> entries;

    private BroadcastMdc(Map<String, Object> entries) {
        this.entries = entries;
    }

    /** The calling thread's MDC entries, copied; null when there are none. */
    static BroadcastMdc capture() {
        return MDC.isEmpty() ? null : new BroadcastMdc(MDC.copyObject());
    }

    /** Runs {@code send} with {@code carried} the entries of what is dispatched on this thread meanwhile. */
    static <T> T whileDispatching(BroadcastMdc carried, Supplier<T> send) {
        BroadcastMdc outer = DISPATCHING.get();
        DISPATCHING.set(carried);
        try {
            return send.get();
        } finally {
            if (outer == null) {
                DISPATCHING.remove();
            } else {
                DISPATCHING.set(outer);
            }
        }
    }

    /** The entries of the broadcast being dispatched on this thread, or null (none, or not an in-process delivery). */
    static BroadcastMdc dispatching() {
        return DISPATCHING.get();
    }

    /**
     * Makes the calling thread's MDC exactly {@code carried}'s entries (none for null). A drain thread inherits its
     * starter's MDC (the log manager's MDC is inheritable), and a listener may add entries of its own: without the
     * clearing, a listener could see those of whoever started its thread, or of the message before.
     */
    static void enter(BroadcastMdc carried) {
        if (!MDC.isEmpty()) {
            MDC.clear();
        }
        if (carried != null) {
            carried.entries.forEach(MDC::putObject);
        }
    }

    /** Clears what the listener ran with and what it added itself: what runs next on the thread starts clean. */
    static void exit() {
        if (!MDC.isEmpty()) {
            MDC.clear();
        }
    }
}
