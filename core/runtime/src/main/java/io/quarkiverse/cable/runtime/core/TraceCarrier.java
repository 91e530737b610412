package io.quarkiverse.cable.runtime.core;

/**
 * The application's trace context, carried with a broadcast to in-process listeners beside its MDC
 * ({@link BroadcastContext}). Abstract because its one implementation needs OpenTelemetry, which the cable does not
 * require: the deployment registers {@code observability.OpenTelemetryTraces} only when the application has the
 * OpenTelemetry tracer, and that bean installs itself at startup. Without it no OpenTelemetry class is loaded, or
 * reached by a native image's analysis, and a broadcast carries its MDC alone.
 */
public abstract class TraceCarrier {

    /** Makes {@code carrier} the one broadcasts use from now on. */
    public static void install(TraceCarrier carrier) {
        BroadcastContext.traces = carrier;
    }

    /** Stops carrying traces (the application stops; dev mode starts a new one). */
    public static void uninstall(TraceCarrier carrier) {
        if (BroadcastContext.traces == carrier) {
            BroadcastContext.traces = null;
        }
    }

    /** The calling thread's trace context, or null when it has none worth carrying (no span is current). */
    protected abstract Object current();

    /** Makes {@code context} (what {@link #current()} returned) current; the result restores what was current. */
    protected abstract Runnable makeCurrent(Object context);
}
