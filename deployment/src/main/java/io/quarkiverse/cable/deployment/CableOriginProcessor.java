package io.quarkiverse.cable.deployment;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jakarta.inject.Singleton;

import io.quarkiverse.cable.runtime.origin.CableOriginUpgradeCheck;
import io.quarkiverse.cable.runtime.origin.OriginCheckedEndpoints;
import io.quarkiverse.cable.runtime.origin.OriginRecorder;
import io.quarkiverse.cable.runtime.origin.RequestOrigins;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;

/**
 * The origin check (quarkus.cable.origin) on every WebSockets Next endpoint that streams cable channels: the
 * {@code @WebSocket} classes with {@code @StreamFrom} or a {@code CableStreams} field or parameter. The Action Cable
 * endpoint checks origins itself.
 */
class CableOriginProcessor {

    @BuildStep
    AdditionalBeanBuildItem originBeans() {
        return AdditionalBeanBuildItem.builder().addBeanClasses(RequestOrigins.class, CableOriginUpgradeCheck.class)
                .setUnremovable().build();
    }

    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    SyntheticBeanBuildItem checkedEndpoints(List<StreamingEndpointBuildItem> endpoints, OriginRecorder recorder) {
        Set<String> ids = new HashSet<>();
        endpoints.forEach(endpoint -> ids.add(endpoint.id()));
        return SyntheticBeanBuildItem.configure(OriginCheckedEndpoints.class)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.endpoints(ids))
                .done();
    }
}
