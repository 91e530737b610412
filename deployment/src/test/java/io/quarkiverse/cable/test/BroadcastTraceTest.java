package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.quarkus.builder.Version;
import io.quarkus.maven.dependency.Dependency;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With the OpenTelemetry tracer in the application, a broadcast made inside a span reaches an in-process listener
 * (the memory adapter) with that span current: a span the listener starts belongs to the broadcasting request's
 * trace, not to a new one. A broadcast made outside any trace gives the listener none.
 */
class BroadcastTraceTest {

    private static final long WAIT_SECONDS = 60;

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .setForcedDependencies(List.of(Dependency.of("io.quarkus", "quarkus-opentelemetry", Version.getVersion())))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            // No collector in a test: spans are made and sampled, never exported.
            .overrideConfigKey("quarkus.otel.traces.exporter", "none")
            .overrideConfigKey("quarkus.otel.metrics.enabled", "false")
            .overrideConfigKey("quarkus.otel.logs.enabled", "false");

    @Inject
    Cable cable;

    @Inject
    Tracer tracer;

    /** What the listener saw: the span current when it was called, and a span it started itself. */
    record Seen(SpanContext current, SpanContext started) {
    }

    @Test
    void aListenerContinuesTheTraceOfItsBroadcast() throws Exception {
        CompletableFuture<Seen> traced = new CompletableFuture<>();
        CompletableFuture<Seen> untraced = new CompletableFuture<>();
        Subscription subscription = cable.subscribe("traced", message -> {
            Span own = tracer.spanBuilder("listener").startSpan();
            try {
                Seen seen = new Seen(Span.current().getSpanContext(), own.getSpanContext());
                (message.text().equals("in a span") ? traced : untraced).complete(seen);
            } finally {
                own.end();
            }
        });
        try {
            subscription.confirmed().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
            Span request = tracer.spanBuilder("request").startSpan();
            try (Scope scope = request.makeCurrent()) {
                cable.broadcast("traced", "in a span").toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
            } finally {
                request.end();
            }
            Seen seen = traced.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(request.getSpanContext().isValid()).isTrue();
            assertThat(seen.current()).as("the broadcasting span is current in the listener")
                    .isEqualTo(request.getSpanContext());
            assertThat(seen.started().getTraceId()).as("a span the listener starts joins the request's trace")
                    .isEqualTo(request.getSpanContext().getTraceId());
            assertThat(seen.started().getSpanId()).isNotEqualTo(request.getSpanContext().getSpanId());

            cable.broadcast("traced", "outside").toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
            Seen outside = untraced.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(outside.current().isValid()).as("no trace outside a span").isFalse();
            assertThat(outside.started().getTraceId()).isNotEqualTo(request.getSpanContext().getTraceId());
        } finally {
            subscription.close();
        }
    }
}
