package io.quarkiverse.cable.it;

import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.awaitility.core.ConditionTimeoutException;

import io.vertx.core.Vertx;

/**
 * A real WebSocket client recording text frames and the close status: the JDK's own (java.net.http), a stack that
 * shares nothing with the server's Vert.x and Netty, so a frame this client misses is not a test artefact of the same
 * libraries. Frames are requested one at a time; {@link #stopReading()} stops requesting, and the JDK then stops
 * reading the socket, so the server's writes back up as for a stalled client.
 */
public final class WsClient implements AutoCloseable {

    public final List<String> received = new CopyOnWriteArrayList<>();
    public final CompletableFuture<Short> closeStatus = new CompletableFuture<>();
    public volatile String closeReason;
    public volatile String subProtocol;
    private final String path;
    private final AtomicBoolean reading = new AtomicBoolean(true);
    private final AtomicBoolean owed = new AtomicBoolean();
    private volatile WebSocket socket;

    private WsClient(String path) {
        this.path = path;
    }

    /** {@code vertx} is not used: kept so that tests read the same whichever client implementation is behind this. */
    public static WsClient connect(Vertx vertx, URI base, String path, String... subProtocols) throws Exception {
        WsClient ws = new WsClient(path);
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder()
                .connectTimeout(Duration.ofSeconds(30));
        if (subProtocols.length > 0) {
            builder.subprotocols(subProtocols[0], Arrays.copyOfRange(subProtocols, 1, subProtocols.length));
        }
        URI uri = URI.create("ws://" + base.getHost() + ":" + base.getPort() + path);
        ws.socket = builder.buildAsync(uri, ws.new Recorder()).get(30, TimeUnit.SECONDS);
        String chosen = ws.socket.getSubprotocol();
        ws.subProtocol = chosen == null || chosen.isEmpty() ? null : chosen;
        return ws;
    }

    /** Connects with extra request headers (for example {@code Authorization}), and the sub-protocols offered. */
    public static WsClient connectWith(URI base, String path, java.util.Map<String, String> headers, String... subProtocols)
            throws Exception {
        WsClient ws = new WsClient(path);
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder()
                .connectTimeout(Duration.ofSeconds(30));
        headers.forEach(builder::header);
        if (subProtocols.length > 0) {
            builder.subprotocols(subProtocols[0], Arrays.copyOfRange(subProtocols, 1, subProtocols.length));
        }
        URI uri = URI.create("ws://" + base.getHost() + ":" + base.getPort() + path);
        ws.socket = builder.buildAsync(uri, ws.new Recorder()).get(30, TimeUnit.SECONDS);
        return ws;
    }

    /** Receives on the JDK's threads, one frame per request, in order. */
    private final class Recorder implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public void onOpen(WebSocket webSocket) {
            webSocket.request(1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                received.add(partial.toString());
                partial.setLength(0);
            }
            requestNext(webSocket);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            requestNext(webSocket);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closeReason = reason;
            closeStatus.complete((short) statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            // The connection ended without a close frame (RFC 6455 "abnormal closure").
            closeReason = String.valueOf(error);
            closeStatus.complete((short) 1006);
        }
    }

    private void requestNext(WebSocket webSocket) {
        if (reading.get()) {
            webSocket.request(1);
        } else {
            owed.set(true);
        }
    }

    public WsClient awaitFrames(int count) {
        return awaitFrames(count, Collector.TIMEOUT);
    }

    public WsClient awaitFrames(int count, Duration timeout) {
        try {
            await().atMost(timeout).until(() -> received.size() >= count);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("expected " + count + " frames within " + timeout + "; " + state(), e);
        }
        return this;
    }

    public WsClient awaitFrame(String frame) {
        try {
            await().atMost(Collector.TIMEOUT).until(() -> received.contains(frame));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("expected frame " + frame + " within " + Collector.TIMEOUT + "; " + state()
                    + ServerSide.describe(path) + "; " + ThreadDumps.write("ws-client-timeout"), e);
        }
        return this;
    }

    /** What this client saw, for a failure message: the frames (the last 20 of them) and how the socket ended. */
    public String state() {
        List<String> frames = List.copyOf(received);
        return "received " + frames.size() + " frames" + (frames.isEmpty() ? ""
                : ", the last ones: "
                        + frames.subList(Math.max(0, frames.size() - 20), frames.size()))
                + "; sub-protocol " + subProtocol
                + "; closed: " + (closeStatus.isDone() ? closeStatus.join() + " " + closeReason : "no");
    }

    public void send(String text) throws Exception {
        socket.sendText(text, true).get(30, TimeUnit.SECONDS);
    }

    /** Stops reading from the socket: the server's writes back up as they would for a stalled client. */
    public void stopReading() {
        reading.set(false);
    }

    public void resumeReading() {
        reading.set(true);
        if (owed.compareAndSet(true, false)) {
            socket.request(1);
        }
    }

    /** Drops the connection without a close frame: the server sees the TCP connection end, as after a crash. */
    public void abort() {
        socket.abort();
    }

    @Override
    public void close() throws Exception {
        if (!socket.isOutputClosed()) {
            try {
                socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(30, TimeUnit.SECONDS);
            } catch (ExecutionException alreadyGone) {
                // the server closed or dropped the connection meanwhile
            }
        }
        socket.abort();
    }
}
