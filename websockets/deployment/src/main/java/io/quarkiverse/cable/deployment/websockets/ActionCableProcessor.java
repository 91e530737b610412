package io.quarkiverse.cable.deployment.websockets;

import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.Type;

import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.TurboStreams;
import io.quarkiverse.cable.runtime.CableIdentitiesBean;
import io.quarkiverse.cable.runtime.actioncable.ActionCableEndpoint;
import io.quarkiverse.cable.runtime.actioncable.ActionCableProtocol;
import io.quarkiverse.cable.runtime.actioncable.ActionCableProtocolGuard;
import io.quarkiverse.cable.runtime.actioncable.ActionCableRecorder;
import io.quarkiverse.cable.runtime.actioncable.ActionCableServer;
import io.quarkiverse.cable.runtime.actioncable.ActionCableShutdownListener;
import io.quarkiverse.cable.runtime.actioncable.ActionCableUpgradeCheck;
import io.quarkiverse.cable.runtime.actioncable.ChannelRegistry;
import io.quarkiverse.cable.runtime.actioncable.CommandFrameLimits;
import io.quarkiverse.cable.runtime.actioncable.TurboStreamsChannel;
import io.quarkiverse.cable.runtime.actioncable.TurboStreamsProducer;
import io.quarkiverse.cable.runtime.core.CablePresenceBean;
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
 * names, the methods the runtime calls and their parameters), and handed to the runtime. A channel implements
 * {@link ChannelHandler}, or declares {@code @OnSubscribe}/{@code @OnUnsubscribe} methods, or both when the handler's
 * own callbacks are not overridden.
 */
class ActionCableProcessor {

    private static final DotName CABLE_CHANNEL = DotName.createSimple(CableChannel.class);
    private static final DotName TURBO_STREAMS = DotName.createSimple(TurboStreams.class);
    /** The built-in {@code Turbo::StreamsChannel}. */
    private static final String TURBO_STREAMS_CHANNEL = TurboStreamsChannel.class.getName();
    /** The channels by name, with their actions: a synthetic bean. */
    private static final DotName CHANNEL_REGISTRY = DotName.createSimple(ChannelRegistry.class);
    /** The Action Cable endpoint's callbacks in the runtime: the generated endpoint extends it. */
    private static final String ACTION_CABLE_ENDPOINT = ActionCableEndpoint.class.getName();

    @BuildStep
    AdditionalBeanBuildItem beans() {
        // The endpoint's superclass is vetoed: it is here to be in the bean index, where WebSockets Next reads callbacks.
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(ActionCableServer.class, TurboStreamsChannel.class, ActionCableEndpoint.class,
                        ActionCableUpgradeCheck.class, CommandFrameLimits.class, ActionCableProtocol.class,
                        ActionCableProtocolGuard.class, TurboStreamsProducer.class, CableIdentitiesBean.class,
                        CablePresenceBean.class)
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
    void endpoint(ActionCableBuildTimeConfig config, BuildProducer<GeneratedBeanBuildItem> generatedBeans) {
        try (ClassCreator endpoint = ClassCreator.builder()
                .classOutput(new GeneratedBeanGizmoAdaptor(generatedBeans, name -> false))
                .className(ACTION_CABLE_ENDPOINT + "_Served")
                .superClass(ACTION_CABLE_ENDPOINT)
                .build()) {
            // CONCURRENT: the callbacks run on the connection's event loop, which runs them in arrival order, and
            // each only hands over (commands are queued on the connection's own executor), so WebSockets Next's
            // per-connection queue for SERIAL processing (about 1 KB a connection) would order nothing.
            endpoint.addAnnotation(AnnotationInstance.builder(WebSocket.class)
                    .add("path", config.mountPath())
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
    FilterBuildItem tokenSubProtocol(ActionCableRecorder recorder, ActionCableBuildTimeConfig config) {
        return new FilterBuildItem(recorder.tokenSubProtocol(config.mountPath()), 210);
    }

    /**
     * The identity's expiry moves out of WebSockets Next's sight on the mount path, so the cable tells the client
     * {@code token_expired} (runtime's {@code ExpiryHandover}): after authentication (200, and form authentication,
     * 150) has set the identity, before authorization (100) and the endpoint.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    FilterBuildItem expiryHandover(ActionCableRecorder recorder, ActionCableBuildTimeConfig config) {
        return new FilterBuildItem(recorder.expiryHandover(config.mountPath()), 120);
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

    /**
     * Reads and checks every {@code @CableChannel} class once: unique names, the actions, the {@code @OnSubscribe} and
     * {@code @OnUnsubscribe} methods and their parameters.
     */
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
            if (Modifier.isAbstract(channel.flags()) || Modifier.isInterface(channel.flags())) {
                throw new ConfigurationException("@CableChannel(\"" + name + "\") on " + channel.name()
                        + " must be a concrete class");
            }
            found.produce(new CableChannelBuildItem(name, channel, ChannelMethodReader.actions(name, channel),
                    ChannelMethodReader.callbacks(name, channel, index)));
        }
        ChannelMethodReader.checkParamsPlaces(index);
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
        // A user holds a TurboStreams (a field, an injected parameter, an Instance<TurboStreams>): a class that only
        // calls its static helpers (TurboStreams.escape) or reads its constants signs nothing and needs no key.
        boolean turboUsed = combined.getIndex().getKnownUsers(TURBO_STREAMS).stream()
                .filter(user -> !exclusions.isExcluded(user))
                .filter(user -> !user.name().toString().startsWith("io.quarkiverse.cable.runtime."))
                .anyMatch(ActionCableProcessor::holdsTurboStreams);
        return SyntheticBeanBuildItem.configure(CHANNEL_REGISTRY)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.registry(classes, actions, turboUsed))
                .done();
    }

    /** Whether {@code user} declares a field or a parameter whose type is, or is parameterized with, TurboStreams. */
    private static boolean holdsTurboStreams(ClassInfo user) {
        return user.fields().stream().anyMatch(field -> mentionsTurboStreams(field.type()))
                || user.methods().stream().flatMap(method -> method.parameterTypes().stream())
                        .anyMatch(ActionCableProcessor::mentionsTurboStreams);
    }

    private static boolean mentionsTurboStreams(Type type) {
        if (type.name().equals(TURBO_STREAMS)) {
            return true;
        }
        return type.kind() == Type.Kind.PARAMETERIZED_TYPE
                && type.asParameterizedType().arguments().stream().anyMatch(ActionCableProcessor::mentionsTurboStreams);
    }

    /**
     * The invocation of every channel method ({@code @CableAction}, {@code @OnSubscribe}, {@code @OnUnsubscribe}),
     * generated by ArC at build time (a direct call, no reflection, as a native image needs). The record and POJO
     * classes Jackson builds for their arguments are registered for reflection so it can build them in a native image
     * too.
     */
    @BuildStep
    void channelMethodInvokers(List<CableChannelBuildItem> channels, ValidationPhaseBuildItem validation,
            InvokerFactoryBuildItem invokers, BuildProducer<ChannelMethodInvokerBuildItem> generated,
            BuildProducer<ValidationPhaseBuildItem.ValidationErrorBuildItem> errors,
            BuildProducer<ReflectiveClassBuildItem> reflective) {
        Set<String> decoded = new TreeSet<>();
        for (CableChannelBuildItem channel : channels) {
            BeanInfo bean = validation.getContext().beans().classBeans().withBeanClass(channel.channel().name())
                    .firstResult().orElse(null);
            if (bean == null) {
                errors.produce(new ValidationPhaseBuildItem.ValidationErrorBuildItem(new IllegalStateException(
                        "@CableChannel(\"" + channel.name() + "\") on " + channel.channel().name() + " is not a bean")));
                continue;
            }
            for (CableChannelBuildItem.Action action : channel.actions()) {
                InvokerInfo invoker = invokers.createInvoker(bean, action.method().method()).build();
                decoded.addAll(action.method().decodedClasses());
                generated.produce(new ChannelMethodInvokerBuildItem(channel.name(), null, action.name(),
                        invoker.getClassName(), action.method().parameters()));
            }
            channel.callbacks().forEach((callback, method) -> {
                InvokerInfo invoker = invokers.createInvoker(bean, method.method()).build();
                decoded.addAll(method.decodedClasses());
                generated.produce(new ChannelMethodInvokerBuildItem(channel.name(), callback, null,
                        invoker.getClassName(), method.parameters()));
            });
        }
        if (!decoded.isEmpty()) {
            reflective.produce(ReflectiveClassBuildItem.builder(decoded.toArray(String[]::new)).constructors()
                    .methods().fields().reason(getClass().getName()).build());
        }
    }

    /** Hands each generated invoker to the channel registry, before any connection is served. */
    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    void bindChannelMethods(List<ChannelMethodInvokerBuildItem> invokers, BeanContainerBuildItem container,
            ActionCableRecorder recorder, RecorderContext context) {
        for (ChannelMethodInvokerBuildItem invoker : invokers) {
            recorder.bind(container.getValue(), invoker.channel(), invoker.callback(), invoker.action(),
                    context.newInstance(invoker.invokerClass()), invoker.parameters());
        }
    }
}
