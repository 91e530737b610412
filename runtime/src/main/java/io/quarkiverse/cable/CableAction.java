package io.quarkiverse.cable;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An action of a {@link CableChannel}, called for {@code subscription.perform("name", data)}. The method takes
 * {@code (ChannelSubscription subscription, io.vertx.core.json.JsonObject data)}; {@code data} holds what the client
 * sent, including its {@code action} key. It runs on a virtual thread, one command at a time per connection.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface CableAction {

    /** The action name; empty means the method name. The name {@code receive} serves {@code subscription.send(data)}. */
    String value() default "";
}
