package io.quarkiverse.cable.it.actioncable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.inject.Inject;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.quarkiverse.cable.CableConnections;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.ThreadDumps;
import io.quarkiverse.cable.it.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ClientWebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;

/**
 * Every Action Cable connection is welcomed (or closed), even right after a flood of malformed frames and under a burst
 * of opens: a client that is neither welcomed nor closed is a silently dead page (pings keep its monitor happy). The
 * flood runs first, in this class, so the order does not depend on how the build orders test classes.
 */
@QuarkusTest
@DatabaseIndependent
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public class ActionCableWelcomeStressTest {

    private static final String V1 = "actioncable-v1-json";
    private static final String WELCOME = "{\"type\":\"welcome\"}";
    private static final int CONNECTIONS = 2000;
    private static final int BURST = 200;
    private static final Duration BURST_WAIT = Duration.ofSeconds(120);

    @TestHTTPResource("/")
    URI base;

    @Inject
    Vertx vertx;

    /** This node's Action Cable connections (the public API). */
    @Inject
    CableConnections server;

    /** One client of a burst: welcomed when the welcome arrived, ended when the socket closed. */
    private record Client(ClientWebSocket socket, CompletableFuture<Void> welcomed, CompletableFuture<Short> ended) {
    }

    @Test
    @Order(1)
    void thousandsOfMalformedFramesAreAnsweredAndLoggedRateLimited() throws Exception {
        Random random = new Random(15);
        List<WsClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                // Half of them start sending before their welcome: commands before welcome wait for identification.
                WsClient client = WsClient.connect(vertx, base, "/cable", V1);
                clients.add(client);
                if (i % 2 == 0) {
                    client.awaitFrame(WELCOME);
                }
                // 150 each: within the command burst (quarkus.cable.limits.command-burst, 200); a client sending more
                // at once is disconnected by the rate limit (AbuseTest).
                for (int frame = 0; frame < 150; frame++) {
                    client.send(garbage(random));
                }
            }
            for (WsClient client : clients) {
                client.awaitFrame(WELCOME);
                assertThat(client.closeStatus).isNotDone();
            }
        } finally {
            for (WsClient client : clients) {
                client.close();
            }
        }
    }

    @Test
    @Order(2)
    void aConnectionThatCannotBeOpenedIsClosedNotLeftSilent() throws Exception {
        // Before: the Error reached the drain loop, was counted as invalid input (a kind the flood above had just
        // rate-limited), and the client, neither welcomed nor closed, kept receiving pings: a silently dead page.
        try (WsClient client = WsClient.connect(vertx, base, "/cable?user=defect", V1)) {
            assertThat(client.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1011);
            assertThat(client.received).doesNotContain(WELCOME);
        }
        // The connection after it is served as usual.
        try (WsClient client = WsClient.connect(vertx, base, "/cable", V1)) {
            client.awaitFrame(WELCOME);
        }
    }

    @Test
    @Order(3)
    void everyConnectionOfABurstIsWelcomed() throws Exception {
        WebSocketClient webSockets = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(BURST * 2));
        try {
            for (int opened = 0; opened < CONNECTIONS; opened += BURST) {
                List<Client> burst = new java.util.concurrent.CopyOnWriteArrayList<>();
                List<CompletableFuture<?>> connected = new ArrayList<>();
                for (int i = 0; i < BURST; i++) {
                    CompletableFuture<Void> welcomed = new CompletableFuture<>();
                    CompletableFuture<Short> ended = new CompletableFuture<>();
                    WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(base.getHost())
                            .setPort(base.getPort()).setURI("/cable?user=burst-" + (opened + i)).addSubProtocol(V1);
                    // Handlers before the connection exists, so no frame sent right after the handshake is missed.
                    ClientWebSocket socket = webSockets.webSocket();
                    socket.textMessageHandler(text -> {
                        if (text.equals(WELCOME)) {
                            welcomed.complete(null);
                        }
                    });
                    socket.closeHandler(ignored -> ended.complete(socket.closeStatusCode()));
                    connected.add(socket.connect(options).toCompletionStage().toCompletableFuture());
                    burst.add(new Client(socket, welcomed, ended));
                }
                CompletableFuture.allOf(connected.toArray(CompletableFuture[]::new)).get(BURST_WAIT.toSeconds(),
                        TimeUnit.SECONDS);
                try {
                    CompletableFuture.allOf(burst.stream().map(Client::welcomed).toArray(CompletableFuture[]::new))
                            .get(BURST_WAIT.toSeconds(), TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    // Each one that waits, as the client sees it: closed (also a close that came before its handlers
                    // were attached, which no close handler hears); the thread dump shows where the server is.
                    List<String> waiting = new ArrayList<>();
                    for (int i = 0; i < burst.size(); i++) {
                        Client client = burst.get(i);
                        if (!client.welcomed().isDone()) {
                            String user = "burst-" + (opened + i);
                            waiting.add(user + ": client socket closed " + client.socket().isClosed() + ", close heard "
                                    + client.ended().isDone());
                        }
                    }
                    throw new AssertionError(waiting.size() + " of " + BURST + " connections opened after " + opened
                            + " were not welcomed within " + BURST_WAIT + ": " + waiting + "; "
                            + ThreadDumps.write("welcome-stress"), e);
                }
                for (Client client : burst) {
                    assertThat(client.ended()).isNotDone();
                    client.socket().close();
                }
            }
        } finally {
            webSockets.close();
        }
        // Every connection closed: none is left registered on the server.
        await().atMost(BURST_WAIT).until(() -> server.count() == 0);
    }

    private static String garbage(Random random) {
        return switch (random.nextInt(8)) {
            case 0 -> "{\"command\":\"subscribe\",\"identifier\":" + "[".repeat(random.nextInt(500)) + "}";
            case 1 -> "{\"command\":" + random.nextInt() + "}";
            case 2 -> "{\"command\":\"message\",\"identifier\":\"" + "i".repeat(random.nextInt(20_000)) + "\"}";
            case 3 -> "{\"command\":\"subscribe\",\"identifier\":\"{\\\"channel\\\":\\\"Nope" + random.nextInt()
                    + "\\\"}\"}";
            case 4 -> "[" + random.nextInt() + "]";
            case 5 -> "null";
            case 6 -> new String(Buffer.buffer(randomBytes(random)).getBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
            default -> "{\"command\":\"unsubscribe\",\"identifier\":\"{}\"}";
        };
    }

    private static byte[] randomBytes(Random random) {
        byte[] bytes = new byte[random.nextInt(64)];
        random.nextBytes(bytes);
        return bytes;
    }
}
