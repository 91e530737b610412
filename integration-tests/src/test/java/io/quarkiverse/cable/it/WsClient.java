package io.quarkiverse.cable.it;

import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.awaitility.core.ConditionTimeoutException;

import io.vertx.core.Vertx;
import io.vertx.core.http.ClientWebSocket;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;

/** A real WebSocket client (Vert.x core) recording text frames and the close status. */
final class WsClient implements AutoCloseable {

    final List<String> received = new CopyOnWriteArrayList<>();
    final CompletableFuture<Short> closeStatus = new CompletableFuture<>();
    volatile String closeReason;
    volatile String subProtocol;
    private final WebSocketClient client;
    private volatile WebSocket socket;

    private WsClient(WebSocketClient client) {
        this.client = client;
    }

    static WsClient connect(Vertx vertx, URI base, String path, String... subProtocols) throws Exception {
        WebSocketClient client = vertx.createWebSocketClient();
        WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(base.getHost()).setPort(base.getPort())
                .setURI(path);
        for (String subProtocol : subProtocols) {
            options.addSubProtocol(subProtocol);
        }
        WsClient ws = new WsClient(client);
        // Handlers are set before the connection exists (ClientWebSocket), so a frame the server sends right after
        // the handshake (a welcome, a "ready") can never arrive before them and be dropped.
        ClientWebSocket socket = client.webSocket();
        socket.textMessageHandler(ws.received::add);
        socket.closeHandler(ignored -> {
            ws.closeReason = socket.closeReason();
            ws.closeStatus.complete(socket.closeStatusCode());
        });
        try {
            socket.connect(options).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof IllegalStateException) || !closedAfterHandshake(socket)) {
                throw e;
            }
            // Vert.x's ClientWebSocket hands our handlers to the new socket one step after the handshake; a server
            // that closes at once (a rejection) can close it before that step, which then throws "WebSocket is
            // closed" and fails connect although the handshake succeeded. The close status is there all the same.
            ws.closeReason = socket.closeReason();
            ws.closeStatus.complete(socket.closeStatusCode());
        }
        ws.socket = socket;
        ws.subProtocol = socket.subProtocol();
        return ws;
    }

    private static boolean closedAfterHandshake(ClientWebSocket socket) {
        try {
            return socket.isClosed();
        } catch (IllegalStateException notConnected) {
            return false;
        }
    }

    WsClient awaitFrames(int count) {
        return awaitFrames(count, Collector.TIMEOUT);
    }

    WsClient awaitFrames(int count, Duration timeout) {
        try {
            await().atMost(timeout).until(() -> received.size() >= count);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("expected " + count + " frames within " + timeout + "; " + state(), e);
        }
        return this;
    }

    WsClient awaitFrame(String frame) {
        try {
            await().atMost(Collector.TIMEOUT).until(() -> received.contains(frame));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("expected frame " + frame + " within " + Collector.TIMEOUT + "; " + state() + "; "
                    + ThreadDumps.write("ws-client-timeout"), e);
        }
        return this;
    }

    /** What this client saw, for a failure message: the frames (the last 20 of them) and how the socket ended. */
    private String state() {
        List<String> frames = List.copyOf(received);
        return "received " + frames.size() + " frames" + (frames.isEmpty() ? ""
                : ", the last ones: "
                        + frames.subList(Math.max(0, frames.size() - 20), frames.size()))
                + "; sub-protocol " + subProtocol
                + "; closed: " + (closeStatus.isDone() ? closeStatus.join() + " " + closeReason : "no");
    }

    void send(String text) throws Exception {
        socket.writeTextMessage(text).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /** Stops reading from the socket: the server's writes back up as they would for a stalled client. */
    void stopReading() {
        socket.pause();
    }

    void resumeReading() {
        socket.resume();
    }

    @Override
    public void close() throws Exception {
        if (!socket.isClosed()) {
            socket.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
        client.close();
    }
}
