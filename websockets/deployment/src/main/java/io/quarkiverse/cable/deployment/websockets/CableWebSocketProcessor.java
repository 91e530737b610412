package io.quarkiverse.cable.deployment.websockets;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.FieldInfo;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.MethodParameterInfo;

import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.StreamFrom;
import io.quarkiverse.cable.runtime.ControlFrameLimit;
import io.quarkiverse.cable.runtime.frontend.RequestOrigins;
import io.quarkiverse.cable.runtime.frontend.StreamAuthorizer;
import io.quarkiverse.cable.runtime.internals.Liveness;
import io.quarkiverse.cable.runtime.internals.RequestHeaderTimeout;
import io.quarkiverse.cable.runtime.internals.SocketAccess;
import io.quarkiverse.cable.runtime.internals.UpgradedConnections;
import io.quarkiverse.cable.runtime.websocket.CableOriginUpgradeCheck;
import io.quarkiverse.cable.runtime.websocket.ChannelTemplate;
import io.quarkiverse.cable.runtime.websocket.StreamAuthorizationUpgradeCheck;
import io.quarkiverse.cable.runtime.websocket.StreamingEndpoints;
import io.quarkiverse.cable.runtime.websocket.StreamingEndpointsRecorder;
import io.quarkiverse.cable.runtime.websocket.WebSocketStreams;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.ExcludedTypeBuildItem;
import io.quarkus.arc.deployment.GeneratedBeanBuildItem;
import io.quarkus.arc.deployment.GeneratedBeanGizmoAdaptor;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
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
import io.quarkus.websockets.next.OnBinaryMessage;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnPingMessage;
import io.quarkus.websockets.next.OnPongMessage;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.http.WebSocketBase;

/**
 * Streams cable channels to WebSockets Next endpoints: finds the {@code @WebSocket} classes that stream the cable
 * ({@link StreamFrom}, {@link CableStreams}), checks every template against the endpoint's path parameters, and
 * registers the streaming bean.
 */
class CableWebSocketProcessor {

    private static final DotName STREAM_FROM = DotName.createSimple(StreamFrom.class);
    private static final DotName WEB_SOCKET = DotName.createSimple(WebSocket.class);
    private static final DotName CABLE_STREAMS = DotName.createSimple(CableStreams.class);
    /** The callbacks WebSockets Next requires at least one of on a server endpoint. */
    private static final DotName ON_PONG = DotName.createSimple(OnPongMessage.class);
    private static final List<DotName> REQUIRED_CALLBACKS = List.of(DotName.createSimple(OnOpen.class),
            DotName.createSimple(OnTextMessage.class), DotName.createSimple(OnBinaryMessage.class),
            DotName.createSimple(OnPingMessage.class), DotName.createSimple(OnPongMessage.class));
    /**
     * The suffix of the endpoint generated for a {@code @StreamFrom} class without callbacks. It starts with WebSockets
     * Next's own suffix for the class it generates per endpoint: WebSockets Next maps a generated name back to its
     * application class by cutting at the first occurrence of that suffix, and puts the generated class in the
     * application's class loader only when that class is an application class (a file of the application). With any
     * other name its generated class would land in the base class loader, which cannot see the application's.
     */
    static final String STREAMING_ENDPOINT_SUFFIX = "_WebSocketServerEndpoint_CableStreaming";

    /**
     * The streaming bean and the upgrade checks of the endpoints that stream the cable: the origin check
     * (quarkus.cable.origin; the Action Cable endpoint uses the same origins), the application's
     * {@code StreamAuthorization} deciding {@code @StreamFrom} streams, and UpgradedConnections, which keeps each
     * streaming connection's HTTP connection for whole shared frames.
     */
    @BuildStep
    AdditionalBeanBuildItem streamingBeans() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(UpgradedConnections.class, WebSocketStreams.class, CableOriginUpgradeCheck.class,
                        StreamAuthorizationUpgradeCheck.class, RequestOrigins.class, StreamAuthorizer.class,
                        Liveness.class, ControlFrameLimit.class, RequestHeaderTimeout.class)
                .setUnremovable().build();
    }

    /**
     * Reads every {@code @WebSocket} class once and keeps those that stream cable channels, with their joined path and
     * checked templates. {@code @StreamFrom} outside a WebSockets Next endpoint fails the build.
     */
    @BuildStep
    void scanStreamingEndpoints(CombinedIndexBuildItem combined, BuildProducer<StreamingEndpointBuildItem> found) {
        IndexView index = combined.getIndex();
        for (AnnotationInstance streamFrom : index.getAnnotations(STREAM_FROM)) {
            if (streamFrom.target().kind() == AnnotationTarget.Kind.CLASS
                    && streamFrom.target().asClass().declaredAnnotation(WEB_SOCKET) == null) {
                throw new ConfigurationException("@StreamFrom on " + streamFrom.target().asClass().name()
                        + " needs a WebSockets Next endpoint: annotate the class with @WebSocket");
            }
        }
        for (AnnotationInstance webSocket : index.getAnnotations(WEB_SOCKET)) {
            if (webSocket.target().kind() != AnnotationTarget.Kind.CLASS) {
                continue;
            }
            ClassInfo endpoint = webSocket.target().asClass();
            AnnotationInstance streamFrom = endpoint.declaredAnnotation(STREAM_FROM);
            if (streamFrom == null && !usesCableStreams(endpoint)) {
                continue;
            }
            String path = EndpointPaths.joinedPath(index, endpoint);
            List<String> templates = streamFrom == null ? List.of() : checkedTemplates(endpoint, streamFrom, path);
            found.produce(new StreamingEndpointBuildItem(endpoint, EndpointPaths.endpointId(endpoint), path, templates));
        }
    }

    private static boolean usesCableStreams(ClassInfo endpoint) {
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

    /** The streaming endpoints as the runtime sees them: one bean for the origin, authorization and stream steps. */
    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    SyntheticBeanBuildItem streamingEndpoints(List<StreamingEndpointBuildItem> endpoints,
            StreamingEndpointsRecorder recorder, Capabilities capabilities) {
        Map<String, List<String>> templates = new HashMap<>();
        Map<String, List<String>> pathParameters = new HashMap<>();
        Set<String> ownPongs = new HashSet<>();
        for (StreamingEndpointBuildItem endpoint : endpoints) {
            templates.put(endpoint.id(), endpoint.templates());
            pathParameters.put(endpoint.id(), List.copyOf(ChannelTemplate.parameters(endpoint.path())));
            if (endpoint.endpoint().methods().stream().anyMatch(method -> method.hasDeclaredAnnotation(ON_PONG))) {
                ownPongs.add(endpoint.id());
            }
        }
        return SyntheticBeanBuildItem.configure(StreamingEndpoints.class)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.endpoints(templates, pathParameters, ownPongs, capabilities.isPresent(Capability.JWT)))
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
            StreamingEndpointsRecorder recorder) {
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

    /**
     * A {@code @StreamFrom} endpoint needs no callback of its own: the cable streams to its connections. WebSockets Next
     * refuses an endpoint without {@code @OnOpen} or a message callback, and reads callbacks from the class files'
     * index, so a method cannot be added to the class itself. Instead, for such a class, this generates a subclass
     * that is the endpoint WebSockets Next serves: the class's own annotations (security, scope, ...), the same path
     * (joined with enclosing endpoints') and endpoint id (so the templates, origin checks and upgrade checks keyed by
     * it apply unchanged), and an empty {@code @OnOpen}. The class itself is excluded from bean discovery, so one
     * bean serves the path; its fields, injection points and other callbacks (such as {@code @OnClose}) are
     * inherited.
     */
    @BuildStep
    void callbackLessEndpoints(List<StreamingEndpointBuildItem> endpoints, CombinedIndexBuildItem combined,
            BuildProducer<GeneratedBeanBuildItem> generatedBeans, BuildProducer<ExcludedTypeBuildItem> excluded) {
        IndexView index = combined.getIndex();
        for (StreamingEndpointBuildItem streaming : endpoints) {
            ClassInfo endpoint = streaming.endpoint();
            if (!streaming.streamsFrom() || declaresCallback(index, endpoint)) {
                continue;
            }
            checkSubclassable(endpoint);
            String generatedName = endpoint.name().toString() + STREAMING_ENDPOINT_SUFFIX;
            try (ClassCreator subclass = ClassCreator.builder()
                    .classOutput(new GeneratedBeanGizmoAdaptor(generatedBeans))
                    .className(generatedName)
                    .superClass(endpoint.name().toString())
                    .build()) {
                for (AnnotationInstance annotation : endpoint.declaredAnnotations()) {
                    if (!annotation.name().equals(WEB_SOCKET) && !annotation.name().equals(STREAM_FROM)) {
                        subclass.addAnnotation(annotation);
                    }
                }
                subclass.addAnnotation(AnnotationInstance.create(WEB_SOCKET, null,
                        webSocketValues(endpoint, streaming.id(), streaming.path())));
                MethodCreator opened = subclass.getMethodCreator("cableStreamOpened", void.class);
                opened.setModifiers(java.lang.reflect.Modifier.PUBLIC);
                opened.addAnnotation(OnOpen.class);
                opened.returnVoid();
            }
            excluded.produce(new ExcludedTypeBuildItem(endpoint.name().toString()));
        }
    }

    /** Whether the class or a superclass in the index has a callback WebSockets Next counts as one. */
    private static boolean declaresCallback(IndexView index, ClassInfo endpoint) {
        for (ClassInfo type = endpoint; type != null; type = type.superName() == null
                || type.superName().equals(DotName.OBJECT_NAME) ? null : index.getClassByName(type.superName())) {
            for (DotName callback : REQUIRED_CALLBACKS) {
                List<AnnotationInstance> annotations = type.annotationsMap().get(callback);
                if (annotations != null && annotations.stream()
                        .anyMatch(annotation -> annotation.target().kind() == AnnotationTarget.Kind.METHOD)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void checkSubclassable(ClassInfo endpoint) {
        boolean innerInstanceClass = endpoint.nestingType() != ClassInfo.NestingType.TOP_LEVEL
                && !java.lang.reflect.Modifier.isStatic(endpoint.flags());
        MethodInfo constructor = endpoint.method("<init>");
        if (java.lang.reflect.Modifier.isFinal(endpoint.flags()) || innerInstanceClass || constructor == null
                || java.lang.reflect.Modifier.isPrivate(constructor.flags())) {
            throw new ConfigurationException("@StreamFrom endpoint " + endpoint.name()
                    + " declares no callback, so the cable serves it through a generated subclass, which needs a"
                    + " non-final, static (or top-level) class with a non-private no-argument constructor; or declare"
                    + " an @OnOpen method (it may be empty) and the class is served as it is");
        }
    }

    /** The endpoint's {@code @WebSocket} values, with its joined path and its endpoint id made explicit. */
    private static List<AnnotationValue> webSocketValues(ClassInfo endpoint, String id, String joinedPath) {
        List<AnnotationValue> values = new ArrayList<>();
        for (AnnotationValue value : endpoint.declaredAnnotation(WEB_SOCKET).values()) {
            if (!value.name().equals("path") && !value.name().equals("endpointId")) {
                values.add(value);
            }
        }
        values.add(AnnotationValue.createStringValue("path", joinedPath));
        values.add(AnnotationValue.createStringValue("endpointId", id));
        return values;
    }

    private static List<String> checkedTemplates(ClassInfo endpoint, AnnotationInstance streamFrom, String path) {
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
