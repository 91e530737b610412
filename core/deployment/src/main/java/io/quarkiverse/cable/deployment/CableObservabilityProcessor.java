package io.quarkiverse.cable.deployment;

import java.util.Optional;

import io.quarkiverse.cable.deployment.CableBuildTimeConfig.Adapter;
import io.quarkiverse.cable.runtime.observability.CableObservability;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.IsLocalDevelopment;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import io.quarkus.devui.spi.page.Page;
import io.quarkus.runtime.metrics.MetricsFactory;
import io.quarkus.smallrye.health.deployment.spi.HealthBuildItem;

/**
 * Health checks, metrics and the Dev UI card. Each is registered only when the application has what it needs
 * (SmallRye Health, Micrometer, development mode), so none of their classes is loaded otherwise.
 */
class CableObservabilityProcessor {

    private static final String DEV_UI_SERVICE = "io.quarkiverse.cable.runtime.dev.CableDevUiService";
    // Named, not loaded: each implements or calls an optional extension's types (SmallRye Health, Micrometer,
    // OpenTelemetry), and the build must not load them in an application without it.
    private static final String READINESS_CHECK = "io.quarkiverse.cable.runtime.observability.CableReadinessCheck";
    private static final String LIVENESS_CHECK = "io.quarkiverse.cable.runtime.observability.CableLivenessCheck";
    private static final String METRICS = "io.quarkiverse.cable.runtime.observability.CableMetrics";
    private static final String TRACES = "io.quarkiverse.cable.runtime.observability.OpenTelemetryTraces";

    /** The figures the checks, the metrics and the Dev UI share; harmless on its own (no optional class). */
    @BuildStep
    AdditionalBeanBuildItem observability() {
        return AdditionalBeanBuildItem.unremovableOf(CableObservability.class);
    }

    @BuildStep
    void healthChecks(Capabilities capabilities, CableBuildTimeConfig config, BuildProducer<HealthBuildItem> checks) {
        if (capabilities.isPresent(Capability.SMALLRYE_HEALTH)) {
            checks.produce(new HealthBuildItem(READINESS_CHECK, config.health().enabled()));
            checks.produce(new HealthBuildItem(LIVENESS_CHECK, config.health().enabled()));
        }
    }

    @BuildStep
    void metrics(Optional<MetricsCapabilityBuildItem> metricsCapability, CableBuildTimeConfig config,
            BuildProducer<AdditionalBeanBuildItem> beans) {
        if (config.metrics().enabled() && metricsCapability.isPresent()
                && metricsCapability.get().metricsSupported(MetricsFactory.MICROMETER)) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(METRICS));
        }
    }

    /** A broadcast's trace context to in-process listeners, when the application traces with OpenTelemetry. */
    @BuildStep
    void traces(Capabilities capabilities, BuildProducer<AdditionalBeanBuildItem> beans) {
        if (capabilities.isPresent(Capability.OPENTELEMETRY_TRACER)) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(TRACES));
        }
    }

    @BuildStep(onlyIf = IsLocalDevelopment.class)
    CardPageBuildItem devUiCard(Optional<CableTransportBuildItem> transport) {
        CardPageBuildItem card = new CardPageBuildItem();
        card.addBuildTimeData("adapter", transport.map(CableTransportBuildItem::adapter).orElse(Adapter.MEMORY)
                .configName());
        card.addPage(Page.webComponentPageBuilder()
                .title("Cable")
                .icon("font-awesome-solid:tower-broadcast")
                .componentLink("qwc-cable-dashboard.js"));
        return card;
    }

    /**
     * The card's JSON-RPC methods. The class comes from quarkus-cable-dev, which the runtime's descriptor puts on the
     * application's class path in development mode only; it is loaded by name from there, so this module needs no
     * compile dependency on it (one would make the runtime's extension-descriptor goal resolve quarkus-cable-dev
     * before the reactor built it: "Failed to resolve ...quarkus-cable-dev" on a fresh machine).
     */
    @BuildStep(onlyIf = IsLocalDevelopment.class)
    JsonRPCProvidersBuildItem devUiRpc() throws ClassNotFoundException {
        return new JsonRPCProvidersBuildItem(Class.forName(DEV_UI_SERVICE, false,
                Thread.currentThread().getContextClassLoader()));
    }
}
