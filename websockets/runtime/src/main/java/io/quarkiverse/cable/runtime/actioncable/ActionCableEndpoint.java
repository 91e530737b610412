package io.quarkiverse.cable.runtime.actioncable;

import jakarta.enterprise.inject.Vetoed;
import jakarta.inject.Inject;

import io.quarkus.websockets.next.OnBinaryMessage;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnError;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.common.annotation.NonBlocking;
import io.vertx.core.buffer.Buffer;

/**
 * The Action Cable endpoint's callbacks on WebSockets Next. The endpoint itself is a subclass the deployment module
 * generates with {@code @WebSocket(path = <mount-path>, endpointId = }{@link #ENDPOINT_ID}{@code )}:
 * a WebSockets Next path is an annotation value, so the mount path is fixed at build time. WebSockets Next upgrades,
 * negotiates the sub-protocol, runs the upgrade checks (origin, identification, the application's security), logs
 * traffic, measures and closes these connections as it does the application's own. Every callback runs on the
 * connection's event loop and only hands over: commands are handled on the connection's own executor, in order
 * ({@link ActionCableConnection}). Vetoed: only the generated subclass is a bean. Public, and so are its members: the
 * subclass and the classes ArC and WebSockets Next generate for it are defined by another class loader than this
 * runtime's in dev and test mode, so they share no package with it.
 */
@Vetoed
public class ActionCableEndpoint {

    /** The endpoint id of the generated endpoint; the upgrade checks and the protocol guard tell it apart by it. */
    public static final String ENDPOINT_ID = "io.quarkiverse.cable.action-cable";

    /**
     * What the callbacks hand over to: the Action Cable server, a bean of this package. An interface, so that the
     * generated subclass's bean (of another class loader) names nothing package-private when it injects it.
     */
    public interface Callbacks {
        void opened(WebSocketConnection socket);

        void received(WebSocketConnection socket, String text);

        /** A binary message: Action Cable is a text protocol. */
        void binary(WebSocketConnection socket);

        /** Bad input from a client of one {@code cause} (a constant): counted and logged, rate-limited per cause. */
        void invalid(String cause, String message);

        void closed(WebSocketConnection socket);

        void failed(WebSocketConnection socket, Throwable failure);
    }

    private Callbacks server;

    @Inject
    public void serve(Callbacks server) {
        this.server = server;
    }

    @OnOpen
    @NonBlocking
    public void opened(WebSocketConnection connection) {
        server.opened(connection);
    }

    @OnTextMessage
    @NonBlocking
    public void command(WebSocketConnection connection, String frame) {
        server.received(connection, frame);
    }

    /**
     * Only when {@code CommandFrameLimits} could not guard the connection's pipeline (which closes it at the first
     * binary frame, before Vert.x assembles the message): the same refusal, after the fact.
     */
    @OnBinaryMessage
    @NonBlocking
    public void binary(WebSocketConnection connection, Buffer frame) {
        server.binary(connection);
    }

    @OnClose
    @NonBlocking
    public void closed(WebSocketConnection connection) {
        server.closed(connection);
    }

    @OnError
    @NonBlocking
    public void failed(WebSocketConnection connection, Throwable failure) {
        server.failed(connection, failure);
    }
}
