package io.quarkiverse.cable;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Streams cable channels to every connection of a WebSockets Next {@code @WebSocket} endpoint.
 * <p>
 * Each template may name the endpoint's path parameters in braces: on {@code @WebSocket(path = "/rooms/{room}")},
 * {@code @StreamFrom("room:{room}")} streams channel {@code room:lobby} to a connection opened on {@code /rooms/lobby}.
 * Every broadcast on a resolved channel, from any node, is sent to the connection as a text frame (binary broadcasts
 * as binary frames), in broadcast order. The streams start when the connection opens ({@link CableStreams#confirmed}
 * tells when they are live) and stop when it closes. Templates are checked at build time: naming a parameter the path
 * does not have fails the build.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface StreamFrom {

    /** Channel templates, each streamed to every connection. */
    String[] value();
}
