package io.quarkiverse.cable.deployment;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Singleton;

import io.quarkiverse.cable.runtime.authz.AuthorizationRecorder;
import io.quarkiverse.cable.runtime.authz.StreamAuthorizationUpgradeCheck;
import io.quarkiverse.cable.runtime.authz.StreamAuthorizer;
import io.quarkiverse.cable.runtime.authz.StreamingEndpoints;
import io.quarkiverse.cable.runtime.websocket.ChannelTemplate;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;

/**
 * The application's {@code StreamAuthorization} on every front end: the upgrade check that decides the
 * {@code @StreamFrom} streams of the endpoints that stream cable channels (the same endpoints the origin check
 * covers), and the path parameters of each such endpoint, which the bean sees by name.
 */
class CableAuthorizationProcessor {

    @BuildStep
    AdditionalBeanBuildItem authorizationBeans() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(StreamAuthorizer.class, StreamAuthorizationUpgradeCheck.class)
                .setUnremovable().build();
    }

    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    SyntheticBeanBuildItem streamingEndpoints(List<StreamingEndpointBuildItem> endpoints,
            AuthorizationRecorder recorder) {
        Map<String, List<String>> pathParameters = new HashMap<>();
        for (StreamingEndpointBuildItem endpoint : endpoints) {
            pathParameters.put(endpoint.id(), List.copyOf(ChannelTemplate.parameters(endpoint.path())));
        }
        return SyntheticBeanBuildItem.configure(StreamingEndpoints.class)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.endpoints(pathParameters))
                .done();
    }
}
