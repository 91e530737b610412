package io.quarkiverse.cable.deployment;

import java.util.HashSet;
import java.util.Set;

import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.FieldInfo;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.MethodParameterInfo;

import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.StreamFrom;
import io.quarkiverse.cable.runtime.origin.CableOriginUpgradeCheck;
import io.quarkiverse.cable.runtime.origin.OriginCheckedEndpoints;
import io.quarkiverse.cable.runtime.origin.OriginRecorder;
import io.quarkiverse.cable.runtime.origin.RequestOrigins;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.websockets.next.WebSocket;

/**
 * The origin check (quarkus.cable.origin) on every WebSockets Next endpoint that streams cable channels: the
 * {@code @WebSocket} classes with {@code @StreamFrom} or a {@code CableStreams} field or parameter. The Action Cable
 * endpoint checks origins itself.
 */
class CableOriginProcessor {

    private static final DotName WEB_SOCKET = DotName.createSimple(WebSocket.class);
    private static final DotName STREAM_FROM = DotName.createSimple(StreamFrom.class);
    private static final DotName CABLE_STREAMS = DotName.createSimple(CableStreams.class);

    @BuildStep
    AdditionalBeanBuildItem originBeans() {
        return AdditionalBeanBuildItem.builder().addBeanClasses(RequestOrigins.class, CableOriginUpgradeCheck.class)
                .setUnremovable().build();
    }

    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    SyntheticBeanBuildItem checkedEndpoints(CombinedIndexBuildItem index, OriginRecorder recorder) {
        Set<String> ids = new HashSet<>();
        for (AnnotationInstance webSocket : index.getIndex().getAnnotations(WEB_SOCKET)) {
            if (webSocket.target().kind() == AnnotationTarget.Kind.CLASS
                    && streamsCable(webSocket.target().asClass())) {
                ids.add(EndpointPaths.endpointId(webSocket.target().asClass()));
            }
        }
        return SyntheticBeanBuildItem.configure(OriginCheckedEndpoints.class)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.endpoints(ids))
                .done();
    }

    static boolean streamsCable(ClassInfo endpoint) {
        if (endpoint.declaredAnnotation(STREAM_FROM) != null) {
            return true;
        }
        for (FieldInfo field : endpoint.fields()) {
            if (field.type().name().equals(CABLE_STREAMS)) {
                return true;
            }
        }
        for (MethodInfo method : endpoint.methods()) {
            for (MethodParameterInfo parameter : method.parameters()) {
                if (parameter.type().name().equals(CABLE_STREAMS)) {
                    return true;
                }
            }
        }
        return false;
    }
}
