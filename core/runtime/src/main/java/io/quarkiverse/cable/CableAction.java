package io.quarkiverse.cable;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An action of a {@link CableChannel}, called for {@code subscription.perform("name", data)}. Its parameters, in any
 * order, are those an {@link OnSubscribe} method takes ({@link ChannelParam}, {@link ChannelSubscription},
 * {@code SecurityIdentity}) plus, optionally, one for the action's data: with {@code io.vertx.core.json.JsonObject},
 * what the client sent, including its {@code action} key; with a record or POJO class, the client's fields (without
 * {@code action}) bound to it with the application's Jackson {@code ObjectMapper} (the one broadcasts are encoded
 * with), so {@code void add(ChannelSubscription s, NewItem item)} receives a {@code NewItem}. Data that does not bind
 * (a wrong type, an unknown field where the mapper refuses them), like a {@code ChannelParam} that does not, is the
 * client's bad input: the action is not called, the command is refused, counted and logged (rate-limited) as invalid
 * input, and the connection stays open. It runs on a virtual thread, one command at a time per connection.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface CableAction {

    /** The action name; empty means the method name. The name {@code receive} serves {@code subscription.send(data)}. */
    String value() default "";
}
