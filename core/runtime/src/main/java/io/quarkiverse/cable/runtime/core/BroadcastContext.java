package io.quarkiverse.cable.runtime.core;

import java.util.Map;
import java.util.function.Supplier;

import org.jboss.logmanager.MDC;

/**
 * What a broadcast carries to this node's listeners of it when the delivery is in-process (the memory adapter
 * dispatches on the broadcasting thread): the log MDC entries of the thread it was made on, so what a listener logs
 * names the request that broadcast, and, when the application traces with OpenTelemetry, that thread's trace context,
 * so a span a listener starts is a child of the broadcasting request's span. A message read back from the database
 * carries neither: the poller dispatches it, on every node alike.
 * <p>
 * Taken at the broadcast ({@link #capture}), it is current on the dispatching thread while the transport hands the
 * message to local subscribers ({@link #whileDispatching}), where a listener's mailbox takes it ({@link #dispatching})
 * along with the message, and restored around that listener's call ({@link #enter}, then the returned exit). A thread
 * with an empty MDC and no trace makes none: the broadcast pays one emptiness check (and, with tracing, one context
 * lookup), each mailbox one thread-local read.
 * <p>
 * The MDC is the log manager's, which Quarkus keeps in the Vert.x context on a request's threads, so entries a
 * request put there (and the {@code traceId} and {@code spanId} Quarkus OpenTelemetry writes for logging) are found.
 */
final class BroadcastContext {

    /** The entries of the broadcast being dispatched on this thread; set only while there are some. */
    private static final ThreadLocal<BroadcastContext> DISPATCHING = new ThreadLocal<>();
    /** Clears the MDC a listener ran with, and what it added itself: what runs next on the thread starts clean. */
    private static final Runnable CLEAR = () -> {
        if (!MDC.isEmpty()) {
            MDC.clear();
        }
    };
    /** The application's tracing, when it has OpenTelemetry ({@link TraceCarrier#install}); else null. */
    static volatile TraceCarrier traces;

    private final Map<String, Object> entries;
    /** The trace context, opaque here: only the installed {@link TraceCarrier} knows its type. */
    private final Object trace;

    private BroadcastContext(Map<String, Object> entries, Object trace) {
        this.entries = entries;
        this.trace = trace;
    }

    /** The calling thread's MDC entries (copied) and trace context; null when it has neither. */
    static BroadcastContext capture() {
        TraceCarrier tracing = traces;
        Object trace = tracing == null ? null : tracing.current();
        if (MDC.isEmpty()) {
            return trace == null ? null : new BroadcastContext(Map.of(), trace);
        }
        return new BroadcastContext(MDC.copyObject(), trace);
    }

    /** Runs {@code send} with {@code carried} the context of what is dispatched on this thread meanwhile. */
    static <T> T whileDispatching(BroadcastContext carried, Supplier<T> send) {
        BroadcastContext outer = DISPATCHING.get();
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

    /** The context of the broadcast being dispatched on this thread, or null (none, or not an in-process delivery). */
    static BroadcastContext dispatching() {
        return DISPATCHING.get();
    }

    /**
     * Makes the calling thread's MDC exactly {@code carried}'s entries (none for null) and its trace context current;
     * returns what undoes both, to be run after the listener. A drain thread inherits its starter's MDC (the log
     * manager's MDC is inheritable), and a listener may add entries of its own: without the clearing, a listener could
     * see those of whoever started its thread, or of the message before.
     */
    static Runnable enter(BroadcastContext carried) {
        CLEAR.run();
        if (carried == null) {
            return CLEAR;
        }
        carried.entries.forEach(MDC::putObject);
        TraceCarrier tracing = traces;
        if (carried.trace == null || tracing == null) {
            return CLEAR;
        }
        Runnable scope = tracing.makeCurrent(carried.trace);
        return () -> {
            scope.run();
            CLEAR.run();
        };
    }
}
