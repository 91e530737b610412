package io.quarkiverse.cable.deployment;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;

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
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.websockets.next.WebSocket;

/**
 * The application's {@code StreamAuthorization} on every front end: the upgrade check that decides the
 * {@code @StreamFrom} streams of the endpoints that stream cable channels (the same endpoints the origin check
 * covers), and the path parameters of each such endpoint, which the bean sees by name.
 */
class CableAuthorizationProcessor {

    private static final DotName WEB_SOCKET = DotName.createSimple(WebSocket.class);

    @BuildStep
    AdditionalBeanBuildItem authorizationBeans() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(StreamAuthorizer.class, StreamAuthorizationUpgradeCheck.class)
                .setUnremovable().build();
    }

    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    SyntheticBeanBuildItem streamingEndpoints(CombinedIndexBuildItem index, AuthorizationRecorder recorder) {
        Map<String, List<String>> pathParameters = new HashMap<>();
        for (AnnotationInstance webSocket : index.getIndex().getAnnotations(WEB_SOCKET)) {
            if (webSocket.target().kind() != AnnotationTarget.Kind.CLASS) {
                continue;
            }
            ClassInfo endpoint = webSocket.target().asClass();
            if (CableOriginProcessor.streamsCable(endpoint)) {
                pathParameters.put(EndpointPaths.endpointId(endpoint),
                        List.copyOf(ChannelTemplate.parameters(EndpointPaths.joinedPath(index.getIndex(), endpoint))));
            }
        }
        return SyntheticBeanBuildItem.configure(StreamingEndpoints.class)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.endpoints(pathParameters))
                .done();
    }
}
