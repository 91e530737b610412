package io.quarkiverse.cable.runtime.internals;

import java.nio.channels.ClosedChannelException;
import java.util.function.Consumer;

import io.quarkiverse.cable.runtime.core.ConnectionOutbox;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.http.WebSocketBase;

/**
 * An outbox's wire to a WebSockets Next connection, for both WebSocket front ends ({@code @StreamFrom} endpoints and
 * the Action Cable endpoint). A {@link SharedTextFrame} that fits one frame goes to the socket under the connection
 * when {@link SocketAccess} can reach it, so the connection writes the shared buffer ({@link SharedFrameWriter}): one
 * buffer write per subscriber. Anything else goes through {@code sendText}/{@code sendBinary}, and so through
 * WebSockets Next's traffic log and telemetry.
 */
public final class WebSocketWire implements ConnectionOutbox.Wire {

    private final WebSocketConnection connection;
    private final SharedFrameWriter sharedFrames;
    private final Consumer<String> onFailure;

    /**
     * @param sockets how to reach the socket under a connection (null: never)
     * @param onFailure hears of a frame refused while the connection was still open
     */
    public WebSocketWire(WebSocketConnection connection, SocketAccess sockets, Consumer<String> onFailure) {
        this.connection = connection;
        this.onFailure = onFailure;
        // A connection keeps its socket and its way of writing: chosen once, not per frame.
        WebSocketBase socket = sockets == null ? null : sockets.socketOf(connection);
        this.sharedFrames = socket == null ? null
                : SharedFrameWriter.of(socket, connection);
    }

    @Override
    public void write(Object frame, Runnable done) {
        if (sharedFrames != null && frame instanceof SharedTextFrame shared && shared.fitsOneFrame()) {
            sharedFrames.write(shared).onComplete(written -> {
                if (written.failed()) {
                    refused(written.cause());
                }
                done.run();
            });
            return;
        }
        var write = frame instanceof byte[] bytes ? connection.sendBinary(bytes) : connection.sendText(frame.toString());
        write.subscribe().with(ignored -> done.run(), failure -> {
            refused(failure);
            done.run();
        });
    }

    @Override
    public long size(Object frame) {
        return frame instanceof SharedTextFrame shared ? shared.encodedSize() : ConnectionOutbox.plainSize(frame);
    }

    private void refused(Throwable failure) {
        if (connection.isOpen() && !(failure instanceof ClosedChannelException)) {
            // Otherwise the frame (a "ready", a broadcast) is lost without a trace. A closed channel is the connection
            // ending (its close has not been seen yet), not a lost frame.
            onFailure.accept("WebSocket connection " + connection.id()
                    + ": a frame could not be written to its open socket: " + failure);
        }
    }

    @Override
    public void close(int code, String reason) {
        closeQuietly(connection, new CloseReason(code, reason));
    }

    /**
     * Closes {@code connection} without waiting. A close that fails finds the connection already gone, which is what
     * the caller wanted: nothing to report.
     */
    public static void closeQuietly(WebSocketConnection connection, CloseReason reason) {
        connection.close(reason).subscribe().with(ignored -> {
        }, failure -> {
        });
    }

    @Override
    public boolean isClosed() {
        return connection.isClosed();
    }
}
