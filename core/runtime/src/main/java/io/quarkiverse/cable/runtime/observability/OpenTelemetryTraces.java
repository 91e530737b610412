package io.quarkiverse.cable.runtime.observability;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkiverse.cable.runtime.core.TraceCarrier;
import io.quarkus.runtime.StartupEvent;

/**
 * Carries the OpenTelemetry context of a broadcasting thread to the in-process listeners of its broadcast, so a span
 * a listener starts continues the broadcasting request's trace. Registered by the deployment only when the
 * application has the OpenTelemetry tracer (so the optional dependency is never loaded without it).
 */
@Singleton
class OpenTelemetryTraces extends TraceCarrier {

    void install(@Observes StartupEvent event) {
        TraceCarrier.install(this);
    }

    @PreDestroy
    void uninstall() {
        TraceCarrier.uninstall(this);
    }

    /** Only a context with a valid span: a thread outside any trace carries nothing (and costs nothing more). */
    @Override
    protected Object current() {
        Context context = Context.current();
        return Span.fromContext(context).getSpanContext().isValid() ? context : null;
    }

    @Override
    protected Runnable makeCurrent(Object context) {
        Scope scope = ((Context) context).makeCurrent();
        return scope::close;
    }
}
