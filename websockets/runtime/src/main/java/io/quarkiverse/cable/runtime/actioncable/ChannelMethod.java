package io.quarkiverse.cable.runtime.actioncable;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.invoke.Invoker;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.type.TypeFactory;

import io.quarkiverse.cable.ChannelSubscription;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableInstance;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.json.JsonObject;

/**
 * One method of a channel ({@code @CableAction}, {@code @OnSubscribe}, {@code @OnUnsubscribe}) called through the ArC
 * invoker generated for it at build time (a direct call, no reflection), with its arguments bound as the build
 * described them: the subscription, the connection's identity, an identifier parameter ({@code @ChannelParam}), the
 * action's data.
 */
final class ChannelMethod {

    /** Where one argument comes from. */
    private sealed interface Argument {
    }

    private record SubscriptionArgument() implements Argument {
    }

    private record IdentityArgument() implements Argument {
    }

    /** The action's data as the client sent it, {@code action} key included. */
    private record JsonData() implements Argument {
    }

    /** The action's data (without its {@code action} key) decoded to {@code type}. */
    private record DecodedData(JavaType type) implements Argument {
    }

    /** The identifier's parameter {@code name}, decoded to {@code type}; wrapped in an Optional when optional. */
    private record Param(String name, JavaType type, boolean optional) implements Argument {
    }

    /**
     * An argument could not be bound from what the client sent: a missing or undecodable parameter, data that does
     * not decode. {@link #reason()} is short and safe to tell the client; the message adds the detail for the log.
     */
    static final class BadArgument extends RuntimeException {
        private final String reason;

        BadArgument(String reason, String detail) {
            super(detail == null ? reason : reason + ": " + detail, null, false, false);
            this.reason = reason;
        }

        String reason() {
            return reason;
        }
    }

    private final Invoker<Object, Object> invoker;
    private final List<Argument> arguments;

    private ChannelMethod(Invoker<Object, Object> invoker, List<Argument> arguments) {
        this.invoker = invoker;
        this.arguments = arguments;
    }

    /**
     * The method of {@code invoker}, its arguments described by the build, one string per parameter:
     * {@code subscription}, {@code identity}, {@code data:json}, {@code data:<type>},
     * {@code param:required:<type>:<name>} or {@code param:optional:<type>:<name>}, where {@code <type>} is a Jackson
     * canonical type name ({@code int}, {@code java.util.List<java.lang.String>}). Built at static init, which a
     * native image runs in its builder: the types are resolved there.
     */
    static ChannelMethod of(Invoker<Object, Object> invoker, List<String> parameters, ClassLoader loader) {
        TypeFactory types = TypeFactory.defaultInstance().withClassLoader(loader);
        List<Argument> arguments = new ArrayList<>();
        for (String parameter : parameters) {
            String[] parts = parameter.split(":", 4);
            arguments.add(switch (parts[0]) {
                case "subscription" -> new SubscriptionArgument();
                case "identity" -> new IdentityArgument();
                case "data" -> parts[1].equals("json") ? new JsonData()
                        : new DecodedData(types.constructFromCanonical(parts[1]));
                case "param" -> new Param(parts[3], types.constructFromCanonical(parts[2]), parts[1].equals("optional"));
                default -> throw new IllegalArgumentException("Unknown channel method parameter " + parameter);
            });
        }
        return new ChannelMethod(invoker, List.copyOf(arguments));
    }

    /**
     * Calls the method on {@code channel}, the bean instance the subscription was made with; {@code data} is the
     * action's data (null for the subscription callbacks). What the method throws is thrown as it is.
     *
     * @throws BadArgument when an argument cannot be bound; the method is not called
     */
    void invoke(Object channel, ChannelSubscription subscription, SecurityIdentity identity, JsonObject data,
            ObjectMapper mapper) throws Exception {
        Object[] values = new Object[arguments.size()];
        JsonObject params = null; // a copy: read once per call
        for (int i = 0; i < values.length; i++) {
            Argument argument = arguments.get(i);
            if (argument instanceof Param && params == null) {
                params = subscription.params();
            }
            values[i] = switch (argument) {
                case SubscriptionArgument ignored -> subscription;
                case IdentityArgument ignored -> identity != null ? identity : injectedIdentity();
                case JsonData ignored -> data;
                case DecodedData decoded -> decode(data, decoded.type(), mapper);
                case Param param -> param(params, param, mapper);
            };
        }
        invoker.invoke(channel, values);
    }

    private static Object decode(JsonObject data, JavaType type, ObjectMapper mapper) {
        JsonObject fields = data.copy();
        fields.remove("action");
        try {
            return mapper.convertValue(fields.getMap(), type);
        } catch (IllegalArgumentException e) {
            throw new BadArgument("data does not decode to " + type.getRawClass().getSimpleName(), e.getMessage());
        }
    }

    private static Object param(JsonObject params, Param param, ObjectMapper mapper) {
        Object raw = params.getValue(param.name());
        if (raw == null) {
            if (param.optional()) {
                return Optional.empty();
            }
            throw new BadArgument("missing param '" + param.name() + "'", null);
        }
        Object value;
        try {
            // Vert.x holds nested values as JsonObject/JsonArray: Jackson reads their maps and lists.
            value = mapper.convertValue(raw instanceof JsonObject object ? object.getMap()
                    : raw instanceof io.vertx.core.json.JsonArray array ? array.getList() : raw, param.type());
        } catch (IllegalArgumentException e) {
            throw new BadArgument("param '" + param.name() + "' does not decode to "
                    + param.type().getRawClass().getSimpleName(), e.getMessage());
        }
        if (value == null && !param.optional()) {
            // An empty string, which Jackson turns into a null number or date: present, not a value of the type.
            throw new BadArgument("param '" + param.name() + "' does not decode to "
                    + param.type().getRawClass().getSimpleName(), "it decodes to null");
        }
        return param.optional() ? Optional.ofNullable(value) : value;
    }

    /**
     * A connection opened without Quarkus Security has no identity of its own: the method gets what
     * {@code @Inject SecurityIdentity} would (anonymous), or null where no identity bean exists at all.
     */
    private static SecurityIdentity injectedIdentity() {
        InjectableInstance<SecurityIdentity> injected = Arc.container().select(SecurityIdentity.class);
        return injected.isResolvable() ? injected.get() : null;
    }
}
