package io.quarkiverse.cable;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A parameter of the subscription's identifier, bound to a parameter of an {@link OnSubscribe}, {@link OnUnsubscribe}
 * or {@link CableAction} method: {@code @ChannelParam("room") String room} receives {@code "lobby"} for
 * {@code {channel: "ChatChannel", room: "lobby"}}. The value is decoded to the parameter's type with the application's
 * Jackson {@code ObjectMapper} (so {@code int}, {@code long}, {@code boolean}, {@code UUID}, enums, records and
 * collections all work, and {@code "42"} decodes to an {@code int} as Jackson allows). The parameter is required,
 * unless its type is {@code java.util.Optional<T>}; a JSON {@code null} counts as absent.
 * <p>
 * A required parameter that is absent, or a value that does not decode, rejects the subscription with a reason; in an
 * action it refuses the command as bad input (it cannot happen for a subscription that was accepted, since the
 * identifier does not change).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface ChannelParam {

    /**
     * The identifier's key. Empty means the Java parameter's name, which only a class compiled with
     * {@code -parameters} (Quarkus projects are, by default) or with debug information keeps: without it, the build
     * fails and asks for the name.
     */
    String value() default "";
}
