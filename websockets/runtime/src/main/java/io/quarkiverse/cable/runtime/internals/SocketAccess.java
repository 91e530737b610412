package io.quarkiverse.cable.runtime.internals;

import jakarta.enterprise.inject.Instance;

import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.http.WebSocketBase;

/**
 * The Vert.x socket under a WebSockets Next connection, so that {@code @StreamFrom} streams can write a
 * {@link SharedTextFrame} (one UTF-8 buffer for every subscriber) instead of {@code sendText(String)}, which converts
 * and copies the text once per connection. WebSockets Next keeps the socket package-private; the only implementation
 * is generated at build time into that package ({@code CableWebSocketProcessor}), with plain bytecode, so no reflection
 * is involved at run time. The one place that depends on this internal: when the bean is missing, or the generated
 * call fails to link against another WebSockets Next, streams fall back to {@code sendText}.
 */
public interface SocketAccess {

    /** The name of the generated implementation, in WebSockets Next's runtime package. */
    String GENERATED_CLASS = "io.quarkus.websockets.next.runtime.CableSocketAccess";

    /** The package-private class that holds the socket, and its accessor. */
    String CONNECTION_BASE = "io.quarkus.websockets.next.runtime.WebSocketConnectionBase";
    String ACCESSOR = "webSocket";

    WebSocketBase socketOf(WebSocketConnection connection);

    /**
     * The accessor a WebSocket front end writes shared frames through, behind the fallback (the first call that fails
     * to link switches shared frames off); null, so every frame goes through {@code sendText}, when
     * {@code quarkus.cable.websocket.shared-frames} is off or the build step did not run.
     */
    static SocketAccess of(Instance<SocketAccess> generated, boolean sharedFrames) {
        return sharedFrames && generated.isResolvable() ? new SharedFrameSockets(generated.get()) : null;
    }
}
