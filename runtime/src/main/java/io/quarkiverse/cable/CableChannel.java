package io.quarkiverse.cable;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An Action Cable channel written in Java: a CDI bean implementing {@link ChannelHandler}, named as the clients name it
 * in the subscription identifier ({@code consumer.subscriptions.create("ChatChannel")} for
 * {@code @CableChannel("ChatChannel")}). Actions are its {@link CableAction} methods. Channels are found and checked
 * when the application is built; a class without a CDI scope becomes a {@code @Singleton}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface CableChannel {

    /** The channel name, the {@code channel} value of the identifier. */
    String value();
}
