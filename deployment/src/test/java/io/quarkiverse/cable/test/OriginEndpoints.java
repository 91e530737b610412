package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.cable.CableIdentification;
import io.quarkiverse.cable.CableRequest;
import io.quarkiverse.cable.CableStreams;
import io.quarkiverse.cable.StreamFrom;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.Vertx;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;

/**
 * The endpoints of the origin tests, each counting how often it ran: the Action Cable endpoint's identification, a
 * {@code @StreamFrom} endpoint, an endpoint that injects {@code CableStreams}, and one that streams nothing (never
 * checked). {@link #handshake} opens a WebSocket with a chosen {@code Origin} (null: none) and returns the HTTP status.
 */
final class OriginEndpoints {

    static final AtomicInteger IDENTIFIED = new AtomicInteger();
    static final AtomicInteger ROOM_OPENED = new AtomicInteger();
    static final AtomicInteger FEED_OPENED = new AtomicInteger();

    private OriginEndpoints() {
    }

    static Class<?>[] classes() {
        return new Class<?>[] { OriginEndpoints.class, Identification.class, Room.class, Feed.class, Plain.class };
    }

    static void reset() {
        IDENTIFIED.set(0);
        ROOM_OPENED.set(0);
        FEED_OPENED.set(0);
    }

    /** 101 when the upgrade succeeded (the socket is closed again), else the refusal's HTTP status. */
    static int handshake(Vertx vertx, URI base, String path, String origin, String... subProtocols) throws Exception {
        WebSocketClient client = vertx.createWebSocketClient();
        try {
            WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(base.getHost())
                    .setPort(base.getPort()).setURI(path)
                    // Off, the client strips every Origin header, ours included; on, it keeps ours.
                    .setAllowOriginHeader(origin != null);
            if (origin != null) {
                options.addHeader("Origin", origin);
            }
            for (String subProtocol : subProtocols) {
                options.addSubProtocol(subProtocol);
            }
            try {
                var socket = client.connect(options).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
                socket.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
                return 101;
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(UpgradeRejectedException.class);
                return ((UpgradeRejectedException) e.getCause()).getStatus();
            }
        } finally {
            client.close();
        }
    }

    @Singleton
    public static class Identification implements CableIdentification {
        @Override
        public Map<String, String> identify(CableRequest request) {
            IDENTIFIED.incrementAndGet();
            return Map.of("user", "u");
        }
    }

    @WebSocket(path = "/rooms/{room}")
    @StreamFrom("room:{room}")
    public static class Room {
        @OnOpen
        void open() {
            ROOM_OPENED.incrementAndGet();
        }
    }

    @WebSocket(path = "/feed")
    public static class Feed {
        @Inject
        CableStreams streams;

        @OnOpen
        void open() {
            FEED_OPENED.incrementAndGet();
        }

        @OnTextMessage
        String start(String channel, WebSocketConnection connection) {
            streams.start(connection, channel);
            return "started";
        }
    }

    @WebSocket(path = "/plain")
    public static class Plain {
        @OnTextMessage
        String echo(String text) {
            return text;
        }
    }
}
