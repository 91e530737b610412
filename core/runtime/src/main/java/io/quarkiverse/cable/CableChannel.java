package io.quarkiverse.cable;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An Action Cable channel written in Java: a CDI bean named as the clients name it in the subscription identifier
 * ({@code consumer.subscriptions.create("ChatChannel")} for {@code @CableChannel("ChatChannel")}). Its
 * {@link OnSubscribe} and {@link OnUnsubscribe} methods run when a client subscribes and when the subscription ends,
 * with the identifier's parameters bound to their {@link ChannelParam} parameters; its actions are its
 * {@link CableAction} methods. Alternatively the class implements {@link ChannelHandler} and overrides its callbacks
 * (a class that overrides a callback and has the annotated method replacing it fails the build). Channels are found
 * and checked when the application is built; a class without a CDI scope becomes a {@code @Singleton}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface CableChannel {

    /** The channel name, the {@code channel} value of the identifier. */
    String value();
}
