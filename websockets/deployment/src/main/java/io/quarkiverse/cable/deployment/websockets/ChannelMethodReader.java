package io.quarkiverse.cable.deployment.websockets;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

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
import io.quarkiverse.cable.ChannelParam;
import io.quarkiverse.cable.ChannelSubscription;
import io.quarkiverse.cable.OnSubscribe;
import io.quarkiverse.cable.OnUnsubscribe;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * Reads and checks the methods of a {@code @CableChannel} class the runtime calls: its {@code @CableAction},
 * {@code @OnSubscribe} and {@code @OnUnsubscribe} methods, and where each of their arguments comes from. A mistake
 * fails the build with a {@link ConfigurationException} naming the class and method.
 */
final class ChannelMethodReader {

    static final DotName CABLE_CHANNEL = DotName.createSimple(CableChannel.class);
    static final DotName CABLE_ACTION = DotName.createSimple(CableAction.class);
    static final DotName ON_SUBSCRIBE = DotName.createSimple(OnSubscribe.class);
    static final DotName ON_UNSUBSCRIBE = DotName.createSimple(OnUnsubscribe.class);
    static final DotName CHANNEL_PARAM = DotName.createSimple(ChannelParam.class);
    private static final DotName SUBSCRIPTION = DotName.createSimple(ChannelSubscription.class);
    private static final DotName IDENTITY = DotName.createSimple("io.quarkus.security.identity.SecurityIdentity");
    private static final DotName JSON_OBJECT = DotName.createSimple("io.vertx.core.json.JsonObject");
    private static final DotName OPTIONAL = DotName.createSimple(Optional.class);
    private static final String PARAMETERS = "ChannelSubscription, SecurityIdentity or a @ChannelParam";

    private ChannelMethodReader() {
    }

    /** The {@code @CableAction} methods of {@code channel}, by action name. */
    static List<CableChannelBuildItem.Action> actions(String channelName, ClassInfo channel) {
        Map<String, MethodInfo> byName = new TreeMap<>();
        for (MethodInfo method : channel.methods()) {
            AnnotationInstance action = method.declaredAnnotation(CABLE_ACTION);
            if (action == null) {
                continue;
            }
            String where = "@CableAction " + channel.name() + "#" + method.name();
            callable(where, method);
            AnnotationValue value = action.value();
            String name = value == null || value.asString().isEmpty() ? method.name() : value.asString();
            MethodInfo previous = byName.put(name, method);
            if (previous != null) {
                throw new ConfigurationException("Channel " + channelName + " has two actions named '" + name + "': "
                        + channel.name() + "#" + previous.name() + " and " + channel.name() + "#" + method.name());
            }
        }
        List<CableChannelBuildItem.Action> actions = new ArrayList<>();
        byName.forEach((name, method) -> actions.add(new CableChannelBuildItem.Action(name,
                read("@CableAction " + channel.name() + "#" + method.name(), method, true))));
        return actions;
    }

    /**
     * The {@code @OnSubscribe} and {@code @OnUnsubscribe} methods of {@code channel} (by {@code SUBSCRIBE},
     * {@code UNSUBSCRIBE}): one of each at most, and none where the class overrides the {@code ChannelHandler}
     * callback it would replace (which of the two would run is not something to guess).
     */
    static Map<String, CableChannelBuildItem.Method> callbacks(String channelName, ClassInfo channel, IndexView index) {
        Map<String, CableChannelBuildItem.Method> callbacks = new HashMap<>();
        callback(channelName, channel, index, ON_SUBSCRIBE, "subscribed", callbacks, "SUBSCRIBE");
        callback(channelName, channel, index, ON_UNSUBSCRIBE, "unsubscribed", callbacks, "UNSUBSCRIBE");
        return callbacks;
    }

    private static void callback(String channelName, ClassInfo channel, IndexView index, DotName annotation,
            String handlerMethod, Map<String, CableChannelBuildItem.Method> callbacks, String key) {
        String simple = "@" + annotation.withoutPackagePrefix();
        MethodInfo found = null;
        for (MethodInfo method : channel.methods()) {
            if (!method.hasDeclaredAnnotation(annotation)) {
                continue;
            }
            if (found != null) {
                throw new ConfigurationException(simple + " is on both " + channel.name() + "#" + found.name()
                        + " and " + channel.name() + "#" + method.name() + ": a channel has one " + simple
                        + " method");
            }
            found = method;
        }
        if (found == null) {
            return;
        }
        String where = simple + " " + channel.name() + "#" + found.name();
        callable(where, found);
        if (found.returnType().kind() != Type.Kind.VOID) {
            throw new ConfigurationException(where + " must return void (reject with ChannelSubscription.reject(reason)"
                    + " or by throwing SubscriptionRejected)");
        }
        ClassInfo overriding = overriding(channel, index, handlerMethod);
        if (overriding != null) {
            throw new ConfigurationException("@CableChannel(\"" + channelName + "\") on " + channel.name()
                    + " has " + where + " and overrides ChannelHandler." + handlerMethod + " (in " + overriding.name()
                    + "): keep one of the two");
        }
        callbacks.put(key, read(where, found, false));
    }

    /** Every {@code @ChannelParam} of the application is on a channel method: elsewhere nothing would bind it. */
    static void checkParamsPlaces(IndexView index) {
        for (AnnotationInstance param : index.getAnnotations(CHANNEL_PARAM)) {
            if (param.target().kind() != AnnotationTarget.Kind.METHOD_PARAMETER) {
                continue;
            }
            MethodInfo method = param.target().asMethodParameter().method();
            boolean channelMethod = method.hasDeclaredAnnotation(CABLE_ACTION)
                    || method.hasDeclaredAnnotation(ON_SUBSCRIBE) || method.hasDeclaredAnnotation(ON_UNSUBSCRIBE);
            if (!channelMethod || !method.declaringClass().hasDeclaredAnnotation(CABLE_CHANNEL)) {
                throw new ConfigurationException("@ChannelParam on " + method.declaringClass().name() + "#"
                        + method.name() + " binds nothing: it is for the @OnSubscribe, @OnUnsubscribe and"
                        + " @CableAction methods of a @CableChannel class");
            }
        }
    }

    private static void callable(String where, MethodInfo method) {
        if (Modifier.isStatic(method.flags()) || Modifier.isPrivate(method.flags())) {
            throw new ConfigurationException(where + " must be neither static nor private");
        }
    }

    /** The class of {@code channel}'s hierarchy (itself first) that declares {@code name(ChannelSubscription)}. */
    private static ClassInfo overriding(ClassInfo channel, IndexView index, String name) {
        ClassInfo current = channel;
        while (current != null) {
            if (current.method(name, Type.create(SUBSCRIPTION, Type.Kind.CLASS)) != null) {
                return current;
            }
            if (current.superName() == null || current.superName().equals(DotName.OBJECT_NAME)) {
                return null;
            }
            current = index.getClassByName(current.superName());
        }
        return null;
    }

    /** Where each argument of {@code method} comes from; an action may also take its data. */
    private static CableChannelBuildItem.Method read(String where, MethodInfo method, boolean action) {
        List<String> parameters = new ArrayList<>();
        Set<String> decoded = new TreeSet<>();
        boolean data = false;
        for (int i = 0; i < method.parametersCount(); i++) {
            Type type = method.parameterType(i);
            AnnotationInstance param = paramAnnotation(method, i);
            if (param != null) {
                parameters.add(param(where, method, i, param, decoded));
            } else if (type.name().equals(SUBSCRIPTION)) {
                parameters.add("subscription");
            } else if (type.name().equals(IDENTITY)) {
                parameters.add("identity");
            } else if (action && !data && type.kind() == Type.Kind.CLASS
                    && !type.name().toString().startsWith("java.")) {
                data = true;
                if (type.name().equals(JSON_OBJECT)) {
                    parameters.add("data:json");
                } else {
                    decoded.add(type.name().toString());
                    parameters.add("data:" + type.name());
                }
            } else {
                throw new ConfigurationException(where + ": parameter " + describe(method, i) + " is not "
                        + PARAMETERS + (action ? " nor the action's data (one parameter of type"
                                + " io.vertx.core.json.JsonObject or a record or POJO class decoded from the action's JSON)"
                                : "; to bind the identifier's parameter, annotate it @ChannelParam"));
            }
        }
        return new CableChannelBuildItem.Method(method, parameters, decoded);
    }

    private static AnnotationInstance paramAnnotation(MethodInfo method, int position) {
        for (AnnotationInstance annotation : method.annotations(CHANNEL_PARAM)) {
            if (annotation.target().kind() == AnnotationTarget.Kind.METHOD_PARAMETER
                    && annotation.target().asMethodParameter().position() == position) {
                return annotation;
            }
        }
        return null;
    }

    private static String param(String where, MethodInfo method, int position, AnnotationInstance param,
            Set<String> decoded) {
        AnnotationValue value = param.value();
        String name = value == null || value.asString().isEmpty() ? method.parameterName(position) : value.asString();
        if (name == null) {
            throw new ConfigurationException(where + ": @ChannelParam on parameter " + describe(method, position)
                    + " needs the identifier's key, @ChannelParam(\"name\"): the class was compiled without parameter"
                    + " names (javac -parameters)");
        }
        Type type = method.parameterType(position);
        boolean optional = type.name().equals(OPTIONAL);
        if (optional && type.kind() != Type.Kind.PARAMETERIZED_TYPE) {
            throw new ConfigurationException(where + ": @ChannelParam(\"" + name + "\") is a raw Optional: say what it"
                    + " holds, Optional<String> for example");
        }
        Type held = optional ? type.asParameterizedType().arguments().get(0) : type;
        return "param:" + (optional ? "optional" : "required") + ":" + canonical(where, name, held, decoded) + ":"
                + name;
    }

    /** Jackson's canonical name of {@code type} ({@code TypeFactory.constructFromCanonical}). */
    private static String canonical(String where, String name, Type type, Set<String> decoded) {
        switch (type.kind()) {
            case PRIMITIVE:
                return type.name().toString();
            case CLASS:
                register(type, decoded);
                return type.name().toString();
            case PARAMETERIZED_TYPE:
                register(type, decoded);
                List<String> arguments = new ArrayList<>();
                for (Type argument : type.asParameterizedType().arguments()) {
                    arguments.add(canonical(where, name, argument, decoded));
                }
                return type.name() + "<" + String.join(",", arguments) + ">";
            default:
                throw new ConfigurationException(where + ": @ChannelParam(\"" + name + "\") has type " + type
                        + ", which cannot be decoded: use a class, a primitive or a generic class of them"
                        + " (no arrays, wildcards or type variables)");
        }
    }

    /** An application class Jackson builds: registered for reflection, as a native image needs. */
    private static void register(Type type, Set<String> decoded) {
        if (!type.name().toString().startsWith("java.")) {
            decoded.add(type.name().toString());
        }
    }

    private static String describe(MethodInfo method, int position) {
        String name = method.parameterName(position);
        return (position + 1) + (name == null ? "" : " '" + name + "'") + " (" + method.parameterType(position) + ")";
    }
}
