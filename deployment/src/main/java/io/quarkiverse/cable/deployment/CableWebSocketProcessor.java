package io.quarkiverse.cable.deployment;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;

import io.quarkiverse.cable.StreamFrom;
import io.quarkiverse.cable.runtime.websocket.ChannelTemplate;
import io.quarkiverse.cable.runtime.websocket.SocketAccess;
import io.quarkiverse.cable.runtime.websocket.StreamTemplates;
import io.quarkiverse.cable.runtime.websocket.StreamTemplatesRecorder;
import io.quarkiverse.cable.runtime.websocket.UpgradedConnections;
import io.quarkiverse.cable.runtime.websocket.WebSocketStreams;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.deployment.GeneratedClassGizmoAdaptor;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.GeneratedClassBuildItem;
import io.quarkus.deployment.recording.RecorderContext;
import io.quarkus.gizmo.ClassCreator;
import io.quarkus.gizmo.MethodCreator;
import io.quarkus.gizmo.MethodDescriptor;
import io.quarkus.gizmo.ResultHandle;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.http.WebSocketBase;

/**
 * Streams cable channels to WebSockets Next endpoints: finds {@link StreamFrom} on {@code @WebSocket} classes, checks
 * every template against the endpoint's path parameters, and registers the streaming bean.
 */
class CableWebSocketProcessor {

    private static final DotName STREAM_FROM = DotName.createSimple(StreamFrom.class);
    private static final DotName WEB_SOCKET = DotName.createSimple(WebSocket.class);

    @BuildStep
    AdditionalBeanBuildItem streamingBeans() {
        // UpgradedConnections keeps each streaming connection's HTTP connection, for whole shared frames.
        return AdditionalBeanBuildItem.builder().addBeanClasses(WebSocketStreams.class, UpgradedConnections.class)
                .setUnremovable().build();
    }

    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    SyntheticBeanBuildItem streamTemplates(CombinedIndexBuildItem index, StreamTemplatesRecorder recorder) {
        Map<String, List<String>> byEndpoint = new TreeMap<>();
        for (AnnotationInstance streamFrom : index.getIndex().getAnnotations(STREAM_FROM)) {
            if (streamFrom.target().kind() != AnnotationTarget.Kind.CLASS) {
                continue;
            }
            ClassInfo endpoint = streamFrom.target().asClass();
            List<String> templates = checkedTemplates(endpoint, streamFrom,
                    EndpointPaths.joinedPath(index.getIndex(), endpoint));
            byEndpoint.put(EndpointPaths.endpointId(endpoint), templates);
        }
        return SyntheticBeanBuildItem.configure(StreamTemplates.class)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.templates(new HashMap<>(byEndpoint)))
                .done();
    }

    /**
     * The socket accessor of shared frames ({@link SocketAccess}): a class in WebSockets Next's runtime package that
     * calls its package-private {@code WebSocketConnectionBase.webSocket()}. Generated as a non-application class, so
     * it is loaded with WebSockets Next's classes (same package, same class loader) in every launch mode, and
     * instantiated by recorded bytecode: no reflection at run time, nothing for native images to register.
     */
    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    SyntheticBeanBuildItem socketAccess(BuildProducer<GeneratedClassBuildItem> generated, RecorderContext context,
            StreamTemplatesRecorder recorder) {
        try (ClassCreator access = ClassCreator.builder()
                .classOutput(new GeneratedClassGizmoAdaptor(generated, false))
                .className(SocketAccess.GENERATED_CLASS)
                .interfaces(SocketAccess.class)
                .build()) {
            MethodCreator socketOf = access.getMethodCreator("socketOf", WebSocketBase.class, WebSocketConnection.class);
            ResultHandle connection = socketOf.checkCast(socketOf.getMethodParam(0), SocketAccess.CONNECTION_BASE);
            socketOf.returnValue(socketOf.invokeVirtualMethod(
                    MethodDescriptor.ofMethod(SocketAccess.CONNECTION_BASE, SocketAccess.ACCESSOR, WebSocketBase.class),
                    connection));
        }
        return SyntheticBeanBuildItem.configure(SocketAccess.class)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.socketAccess(context.newInstance(SocketAccess.GENERATED_CLASS)))
                .done();
    }

    private static List<String> checkedTemplates(ClassInfo endpoint, AnnotationInstance streamFrom, String path) {
        AnnotationInstance webSocket = endpoint.declaredAnnotation(WEB_SOCKET);
        if (webSocket == null) {
            throw new ConfigurationException("@StreamFrom on " + endpoint.name()
                    + " needs a WebSockets Next endpoint: annotate the class with @WebSocket");
        }
        Set<String> pathParameters = Set.copyOf(ChannelTemplate.parameters(path));
        List<String> templates = List.of(streamFrom.value().asStringArray());
        if (templates.isEmpty()) {
            throw new ConfigurationException("@StreamFrom on " + endpoint.name() + " names no channel");
        }
        for (String template : templates) {
            if (template.isBlank()) {
                throw new ConfigurationException("@StreamFrom on " + endpoint.name() + " has an empty channel template");
            }
            for (String parameter : ChannelTemplate.parameters(template)) {
                if (!pathParameters.contains(parameter)) {
                    throw new ConfigurationException("@StreamFrom(\"" + template + "\") on " + endpoint.name()
                            + " names path parameter {" + parameter + "}, but the endpoint path " + path
                            + " has " + (pathParameters.isEmpty() ? "none" : pathParameters));
                }
            }
        }
        return templates;
    }
}
