package io.quarkiverse.cable.deployment;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;

import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.TurboStreams;
import io.quarkiverse.cable.runtime.actioncable.ActionCableEndpoint;
import io.quarkiverse.cable.runtime.actioncable.ActionCableRecorder;
import io.quarkiverse.cable.runtime.actioncable.ActionCableShutdownListener;
import io.quarkiverse.cable.runtime.core.CableBuildTimeConfig;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.AutoAddScopeBuildItem;
import io.quarkus.arc.deployment.BeanContainerBuildItem;
import io.quarkus.arc.deployment.BuildExclusionsBuildItem;
import io.quarkus.arc.deployment.GeneratedBeanBuildItem;
import io.quarkus.arc.deployment.GeneratedBeanGizmoAdaptor;
import io.quarkus.arc.deployment.InvokerFactoryBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem;
import io.quarkus.arc.processor.BeanInfo;
import io.quarkus.arc.processor.InvokerInfo;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.ShutdownListenerBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.deployment.recording.RecorderContext;
import io.quarkus.gizmo.ClassCreator;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.vertx.http.deployment.FilterBuildItem;
import io.quarkus.websockets.next.InboundProcessingMode;
import io.quarkus.websockets.next.WebSocket;

/**
 * The Action Cable endpoint and the {@link CableChannel} beans: channels are read from the index, checked (unique
 * names, {@link ChannelHandler}, action signatures and names), and handed to the runtime.
 */
class ActionCableProcessor {

    private static final DotName CABLE_CHANNEL = DotName.createSimple(CableChannel.class);
    private static final DotName CABLE_ACTION = DotName.createSimple(CableAction.class);
    private static final DotName CHANNEL_HANDLER = DotName.createSimple(ChannelHandler.class);
    private static final DotName SUBSCRIPTION = DotName.createSimple(ChannelSubscription.class);
    private static final DotName JSON_OBJECT = DotName.createSimple("io.vertx.core.json.JsonObject");
    private static final DotName TURBO_STREAMS = DotName.createSimple(TurboStreams.class);
    /** The built-in {@code Turbo::StreamsChannel}, package-private in the runtime. */
    private static final String TURBO_STREAMS_CHANNEL = "io.quarkiverse.cable.runtime.actioncable.TurboStreamsChannel";
    /** The channels by name, with their actions: a bean of the runtime's Action Cable package, package-private. */
    private static final DotName CHANNEL_REGISTRY = DotName
            .createSimple("io.quarkiverse.cable.runtime.actioncable.ChannelRegistry");
    /** The Action Cable endpoint's callbacks in the runtime: the generated endpoint extends it. */
    private static final String ACTION_CABLE_ENDPOINT = "io.quarkiverse.cable.runtime.actioncable.ActionCableEndpoint";

    @BuildStep
    AdditionalBeanBuildItem beans() {
        // Beans only the container makes are package-private in their packages: named here, not imported. The
        // endpoint's superclass is vetoed: it is here to be in the bean index, where WebSockets Next reads callbacks.
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses("io.quarkiverse.cable.runtime.actioncable.ActionCableServer", TURBO_STREAMS_CHANNEL,
                        ACTION_CABLE_ENDPOINT,
                        "io.quarkiverse.cable.runtime.actioncable.ActionCableUpgradeCheck",
                        "io.quarkiverse.cable.runtime.actioncable.ActionCableProtocol",
                        "io.quarkiverse.cable.runtime.actioncable.ActionCableProtocolGuard",
                        "io.quarkiverse.cable.runtime.actioncable.TurboStreamsProducer",
                        "io.quarkiverse.cable.runtime.CableIdentitiesBean",
                        "io.quarkiverse.cable.runtime.core.CablePresenceBean")
                // WebSockets Next registers its server beans only when the application's index has a @WebSocket
                // class, and the Action Cable endpoint is generated: an application with no endpoint of its own
                // needs them too.
                .addBeanClasses("io.quarkus.websockets.next.runtime.ConnectionManager",
                        "io.quarkus.websockets.next.runtime.WebSocketHttpServerOptionsCustomizer")
                .setUnremovable().build();
    }

    /**
     * The Action Cable endpoint: a subclass of the runtime's {@code ActionCableEndpoint} (its callbacks, vetoed itself)
     * that WebSockets Next serves at the mount path, so upgrade, sub-protocol, security, traffic log, telemetry and
     * shutdown are WebSockets Next's. A path is an annotation value: this is why the mount path is a build-time
     * property. The class is generated into the runtime's package as a class of the extension, not of the
     * application, and so is the endpoint class WebSockets Next generates for it; in dev and test mode they are still
     * defined by another class loader than the runtime jar, which is why the superclass and its members are public.
     */
    @BuildStep
    void endpoint(CableBuildTimeConfig config, BuildProducer<GeneratedBeanBuildItem> generatedBeans) {
        try (ClassCreator endpoint = ClassCreator.builder()
                .classOutput(new GeneratedBeanGizmoAdaptor(generatedBeans, name -> false))
                .className(ACTION_CABLE_ENDPOINT + "_Served")
                .superClass(ACTION_CABLE_ENDPOINT)
                .build()) {
            // CONCURRENT: the callbacks run on the connection's event loop, which runs them in arrival order, and
            // each only hands over (commands are queued on the connection's own executor), so WebSockets Next's
            // per-connection queue for SERIAL processing (about 1 KB a connection) would order nothing.
            endpoint.addAnnotation(AnnotationInstance.builder(WebSocket.class)
                    .add("path", config.actionCable().mountPath())
                    .add("endpointId", ActionCableEndpoint.ENDPOINT_ID)
                    .add("inboundProcessingMode", InboundProcessingMode.CONCURRENT)
                    .build());
        }
    }

    /**
     * {@code anycable-token.<token>} sub-protocols become bearer tokens before Quarkus authenticates the upgrade: the
     * filter runs after WebSockets Next's own header propagation (priority 220) and before authentication
     * ({@code SecurityHandlerPriorities.AUTHENTICATION}, 200); filters of a higher priority run first.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    FilterBuildItem tokenSubProtocol(ActionCableRecorder recorder, CableBuildTimeConfig config) {
        return new FilterBuildItem(recorder.tokenSubProtocol(config.actionCable().mountPath()), 210);
    }

    /**
     * The identity's expiry moves out of WebSockets Next's sight on the mount path, so the cable tells the client
     * {@code token_expired} (runtime's {@code ExpiryHandover}): after authentication (200, and form authentication,
     * 150) has set the identity, before authorization (100) and the endpoint.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    FilterBuildItem expiryHandover(ActionCableRecorder recorder, CableBuildTimeConfig config) {
        return new FilterBuildItem(recorder.expiryHandover(config.actionCable().mountPath()), 120);
    }

    /** Action Cable clients hear server_restart before the HTTP server closes their connections. */
    @BuildStep
    ShutdownListenerBuildItem disconnectOnShutdown() {
        return new ShutdownListenerBuildItem(new ActionCableShutdownListener());
    }

    /** Channel classes without a scope become singletons; all are kept, since they are looked up by name. */
    @BuildStep
    void channelBeans(BuildProducer<AutoAddScopeBuildItem> scopes, BuildProducer<UnremovableBeanBuildItem> unremovable) {
        scopes.produce(AutoAddScopeBuildItem.builder().isAnnotatedWith(CABLE_CHANNEL).defaultScope(
                io.quarkus.arc.processor.BuiltinScope.SINGLETON).unremovable().build());
        unremovable.produce(UnremovableBeanBuildItem.beanTypes(TURBO_STREAMS));
    }

    /** Reads and checks every {@code @CableChannel} class once: unique names, the handler, the actions. */
    @BuildStep
    void scanChannels(CombinedIndexBuildItem combined, BuildProducer<CableChannelBuildItem> found) {
        IndexView index = combined.getIndex();
        Map<String, String> classes = new TreeMap<>();
        for (AnnotationInstance annotation : index.getAnnotations(CABLE_CHANNEL)) {
            if (annotation.target().kind() != AnnotationTarget.Kind.CLASS) {
                continue;
            }
            ClassInfo channel = annotation.target().asClass();
            String name = annotation.value().asString();
            if (name.isBlank()) {
                throw new ConfigurationException("@CableChannel on " + channel.name() + " has an empty channel name");
            }
            if (TurboStreams.CHANNEL.equals(name)) {
                throw new ConfigurationException("@CableChannel(\"" + name + "\") on " + channel.name()
                        + " takes the name of the built-in Turbo Streams channel");
            }
            String previous = classes.put(name, channel.name().toString());
            if (previous != null) {
                throw new ConfigurationException("@CableChannel(\"" + name + "\") is on both " + previous + " and "
                        + channel.name());
            }
            if (!implementsHandler(index, channel)) {
                throw new ConfigurationException("@CableChannel(\"" + name + "\") on " + channel.name()
                        + " must implement " + ChannelHandler.class.getName());
            }
            if (Modifier.isAbstract(channel.flags()) || Modifier.isInterface(channel.flags())) {
                throw new ConfigurationException("@CableChannel(\"" + name + "\") on " + channel.name()
                        + " must be a concrete class");
            }
            found.produce(new CableChannelBuildItem(name, channel, actionsOf(name, channel)));
        }
    }

    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    SyntheticBeanBuildItem channels(List<CableChannelBuildItem> found, CombinedIndexBuildItem combined,
            BuildExclusionsBuildItem exclusions, ActionCableRecorder recorder,
            BuildProducer<ReflectiveClassBuildItem> reflective) {
        Map<String, String> classes = new HashMap<>();
        Map<String, Set<String>> actions = new HashMap<>();
        for (CableChannelBuildItem channel : found) {
            classes.put(channel.name(), channel.channel().name().toString());
            Set<String> names = new TreeSet<>();
            channel.actions().forEach(action -> names.add(action.name()));
            actions.put(channel.name(), names);
        }
        // Turbo::StreamsChannel is an ordinary channel without actions, as in turbo-rails.
        classes.put(TurboStreams.CHANNEL, TURBO_STREAMS_CHANNEL);
        // ChannelRegistry loads every channel class by name (Class.forName). Built during static init (when an action
        // is bound) that runs in the native-image builder, but an application without actions builds it lazily at
        // run time, where a native image finds only the classes registered for reflection: register them all, the
        // Turbo channel included (the class only, no members: the bean is obtained from ArC, not constructed).
        reflective.produce(ReflectiveClassBuildItem.builder(classes.values().toArray(String[]::new))
                .reason(getClass().getName()).build());
        // The extension's own classes (the Turbo channel, the producer) do not make an application a Turbo user, nor
        // do classes left out of this build (@IfBuildProfile and its siblings: a demo's signing endpoint in dev and
        // test builds only needs no key in production).
        boolean turboUsed = combined.getIndex().getKnownUsers(TURBO_STREAMS).stream()
                .filter(user -> !exclusions.isExcluded(user))
                .anyMatch(user -> !user.name().toString().startsWith("io.quarkiverse.cable.runtime."));
        return SyntheticBeanBuildItem.configure(CHANNEL_REGISTRY)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.registry(classes, actions, turboUsed))
                .done();
    }

    private static List<CableChannelBuildItem.Action> actionsOf(String channelName, ClassInfo channel) {
        Map<String, MethodInfo> byName = new TreeMap<>();
        for (MethodInfo method : channel.methods()) {
            AnnotationInstance action = method.annotation(CABLE_ACTION);
            if (action == null || action.target().kind() != AnnotationTarget.Kind.METHOD) {
                continue;
            }
            String where = channel.name() + "#" + method.name();
            if (method.parametersCount() != 2 || !method.parameterType(0).name().equals(SUBSCRIPTION)
                    || method.parameterType(1).kind() != Type.Kind.CLASS
                    || method.parameterType(1).name().toString().startsWith("java.")) {
                throw new ConfigurationException("@CableAction " + where + " must take (ChannelSubscription, data),"
                        + " where data is io.vertx.core.json.JsonObject or a record or POJO class decoded from the"
                        + " action's JSON");
            }
            if (Modifier.isStatic(method.flags()) || Modifier.isPrivate(method.flags())) {
                throw new ConfigurationException("@CableAction " + where + " must be neither static nor private");
            }
            AnnotationValue value = action.value();
            String name = value == null || value.asString().isEmpty() ? method.name() : value.asString();
            MethodInfo previous = byName.put(name, method);
            if (previous != null) {
                throw new ConfigurationException("Channel " + channelName + " has two actions named '" + name + "': "
                        + channel.name() + "#" + previous.name() + " and " + where);
            }
        }
        List<CableChannelBuildItem.Action> actions = new ArrayList<>();
        byName.forEach((name, method) -> actions.add(new CableChannelBuildItem.Action(name, method)));
        return actions;
    }

    /**
     * The invocation of every {@code @CableAction} method, generated by ArC at build time (a direct call, no
     * reflection, as a native image needs). Record and POJO parameters are registered for reflection so Jackson can
     * build them in a native image too.
     */
    @BuildStep
    void actionInvokers(List<CableChannelBuildItem> channels, ValidationPhaseBuildItem validation,
            InvokerFactoryBuildItem invokers, BuildProducer<CableActionInvokerBuildItem> generated,
            BuildProducer<ValidationPhaseBuildItem.ValidationErrorBuildItem> errors,
            BuildProducer<ReflectiveClassBuildItem> reflective) {
        for (CableChannelBuildItem channel : channels) {
            BeanInfo bean = validation.getContext().beans().classBeans().withBeanClass(channel.channel().name())
                    .firstResult().orElse(null);
            if (bean == null) {
                errors.produce(new ValidationPhaseBuildItem.ValidationErrorBuildItem(new IllegalStateException(
                        "@CableChannel(\"" + channel.name() + "\") on " + channel.channel().name() + " is not a bean")));
                continue;
            }
            for (CableChannelBuildItem.Action action : channel.actions()) {
                InvokerInfo invoker = invokers.createInvoker(bean, action.method()).build();
                String parameter = action.method().parameterType(1).name().toString();
                if (!action.method().parameterType(1).name().equals(JSON_OBJECT)) {
                    reflective.produce(ReflectiveClassBuildItem.builder(parameter).constructors().methods().fields()
                            .build());
                }
                generated.produce(new CableActionInvokerBuildItem(channel.name(), action.name(),
                        invoker.getClassName(), parameter));
            }
        }
    }

    /** Hands each generated invoker to the channel registry, before any connection is served. */
    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    void bindActionInvokers(List<CableActionInvokerBuildItem> invokers, BeanContainerBuildItem container,
            ActionCableRecorder recorder, RecorderContext context) {
        for (CableActionInvokerBuildItem invoker : invokers) {
            recorder.bind(container.getValue(), invoker.channel(), invoker.action(),
                    context.newInstance(invoker.invokerClass()), context.classProxy(invoker.parameterType()));
        }
    }

    private static boolean implementsHandler(IndexView index, ClassInfo type) {
        ClassInfo current = type;
        while (current != null) {
            if (current.interfaceNames().contains(CHANNEL_HANDLER)) {
                return true;
            }
            if (current.superName() == null || current.superName().equals(DotName.OBJECT_NAME)) {
                return false;
            }
            current = index.getClassByName(current.superName());
        }
        return false;
    }
}
