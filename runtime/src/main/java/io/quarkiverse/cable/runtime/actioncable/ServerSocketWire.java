package io.quarkiverse.cable.runtime.actioncable;

import java.nio.channels.ClosedChannelException;
import java.util.function.Consumer;

import io.quarkiverse.cable.runtime.core.ConnectionOutbox;
import io.quarkiverse.cable.runtime.internals.SharedFrameWriter;
import io.quarkiverse.cable.runtime.internals.SharedTextFrame;
import io.vertx.core.Future;
import io.vertx.core.http.ServerWebSocket;

/**
 * An outbox's wire to the Action Cable endpoint's server WebSocket: a {@link SharedTextFrame} is written as the shared
 * buffer ({@link SharedFrameWriter}), any other frame as a String.
 */
final class ServerSocketWire implements ConnectionOutbox.Wire {

    private final ServerWebSocket socket;
    private final SharedFrameWriter sharedFrames;
    private final Consumer<String> onFailure;

    /** {@code onFailure} hears of a frame refused while the socket was still open. */
    ServerSocketWire(ServerWebSocket socket, SharedFrameWriter sharedFrames, Consumer<String> onFailure) {
        this.socket = socket;
        this.sharedFrames = sharedFrames;
        this.onFailure = onFailure;
    }

    @Override
    public void write(Object frame, Runnable done) {
        Future<Void> written;
        // One writer at a time: the fragments of a long frame must not interleave with another frame (the poller
        // delivers broadcasts while the event loop answers commands).
        synchronized (this) {
            written = frame instanceof SharedTextFrame shared ? sharedFrames.write(shared)
                    : socket.writeTextMessage((String) frame);
        }
        written.onComplete(result -> {
            // A closed channel is a connection ending (its close handler has not run yet), not a lost frame.
            if (result.failed() && !socket.isClosed() && !(result.cause() instanceof ClosedChannelException)) {
                // A write refused on an open socket loses that frame (a welcome, a confirmation) silently otherwise;
                // the client would wait for it forever.
                onFailure.accept("a frame could not be written to its open socket: " + result.cause());
            }
            done.run();
        });
    }

    @Override
    public long size(Object frame) {
        return frame instanceof SharedTextFrame shared ? shared.encodedSize() : ConnectionOutbox.plainSize(frame);
    }

    @Override
    public void close(int code, String reason) {
        socket.close((short) code, reason);
    }

    @Override
    public boolean isClosed() {
        return socket.isClosed();
    }
}
