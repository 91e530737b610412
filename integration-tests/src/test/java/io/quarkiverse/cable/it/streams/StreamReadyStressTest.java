package io.quarkiverse.cable.it.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkiverse.cable.it.ThreadDumps;
import io.quarkiverse.cable.it.actioncable.ActionCableProtocolTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Vertx;
import io.vertx.core.http.ClientWebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;

/**
 * Every {@code @StreamFrom} connection opened in a burst hears "ready" (its stream confirmed by the poller) and then
 * receives a broadcast: each connection streams its own room, so each open queues a new subscription while the poller
 * is busy starting the others and polling (the moment a wake-up could be used up by the poller's own database wait).
 * The same for Action Cable subscriptions, whose confirmation waits for the same starting line. The polling interval is
 * an hour and other nodes' wake-ups are off, so only this node's wake-ups can start a subscription or deliver a
 * broadcast in time: a lost one leaves a client without its "ready" or its confirmation.
 */
@QuarkusTest
@OncePerServer
@TestProfile(StreamReadyStressTest.WakeupsOnly.class)
public class StreamReadyStressTest {

    public static class WakeupsOnly implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.polling-interval", "1h", "quarkus.cable.wakeup.mode", "none");
        }
    }

    private static final int CONNECTIONS = 1000;
    private static final int BURST = 100;
    private static final Duration BURST_WAIT = Duration.ofSeconds(60);

    @TestHTTPResource("/")
    URI base;

    @Inject
    Vertx vertx;

    @Inject
    Cable cable;

    private record Client(String room, ClientWebSocket socket, CompletableFuture<Void> ready,
            CompletableFuture<Void> received, CompletableFuture<Short> ended) {
    }

    @Test
    void everyActionCableSubscriptionOfABurstIsConfirmedAndLive() throws Exception {
        WebSocketClient webSockets = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(BURST * 2));
        String prefix = "confirm-" + System.nanoTime() + "-";
        try {
            for (int opened = 0; opened < CONNECTIONS / 2; opened += BURST) {
                List<Client> burst = new ArrayList<>();
                List<CompletableFuture<?>> connected = new ArrayList<>();
                for (int i = 0; i < BURST; i++) {
                    String room = prefix + (opened + i);
                    String identifier = "{\"channel\":\"ChatChannel\",\"room\":\"" + room + "\"}";
                    Client client = new Client(room, webSockets.webSocket(), new CompletableFuture<>(),
                            new CompletableFuture<>(), new CompletableFuture<>());
                    client.socket().textMessageHandler(text -> {
                        if (text.equals("{\"type\":\"welcome\"}")) {
                            client.socket().writeTextMessage(ActionCableProtocolTest.subscribe(identifier));
                        } else if (text.equals(ActionCableProtocolTest.confirm(identifier))) {
                            client.ready().complete(null);
                        } else if (text.contains("to " + room)) {
                            client.received().complete(null);
                        }
                    });
                    client.socket().closeHandler(ignored -> client.ended().complete(client.socket().closeStatusCode()));
                    connected.add(client.socket().connect(new WebSocketConnectOptions().setHost(base.getHost())
                            .setPort(base.getPort()).setURI("/cable").addSubProtocol("actioncable-v1-json"))
                            .toCompletionStage().toCompletableFuture());
                    burst.add(client);
                }
                CompletableFuture.allOf(connected.toArray(CompletableFuture[]::new)).get(BURST_WAIT.toSeconds(),
                        TimeUnit.SECONDS);
                awaitAll(burst, Client::ready, "had its subscription confirmed", opened);
                deliverOneEachThenClose(burst, client -> "chat:" + client.room(),
                        client -> "{\"text\":\"to " + client.room() + "\"}", opened);
            }
        } finally {
            webSockets.close();
        }
    }

    @Test
    void everyStreamOfABurstIsConfirmedAndLive() throws Exception {
        WebSocketClient webSockets = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(BURST * 2));
        String prefix = "ready-" + System.nanoTime() + "-";
        try {
            for (int opened = 0; opened < CONNECTIONS; opened += BURST) {
                List<Client> burst = new ArrayList<>();
                List<CompletableFuture<?>> connected = new ArrayList<>();
                for (int i = 0; i < BURST; i++) {
                    String room = prefix + (opened + i);
                    Client client = new Client(room, webSockets.webSocket(), new CompletableFuture<>(),
                            new CompletableFuture<>(), new CompletableFuture<>());
                    // Handlers before the connection exists, so no frame sent right after the handshake is missed.
                    client.socket().textMessageHandler(text -> {
                        if (text.equals("ready")) {
                            client.ready().complete(null);
                        } else if (text.equals("to " + room)) {
                            client.received().complete(null);
                        }
                    });
                    client.socket().closeHandler(ignored -> client.ended().complete(client.socket().closeStatusCode()));
                    connected.add(client.socket().connect(new WebSocketConnectOptions().setHost(base.getHost())
                            .setPort(base.getPort()).setURI("/rooms/" + room)).toCompletionStage().toCompletableFuture());
                    burst.add(client);
                }
                CompletableFuture.allOf(connected.toArray(CompletableFuture[]::new)).get(BURST_WAIT.toSeconds(),
                        TimeUnit.SECONDS);
                awaitAll(burst, Client::ready, "heard \"ready\"", opened);
                deliverOneEachThenClose(burst, client -> "room:" + client.room(), client -> "to " + client.room(), opened);
            }
        } finally {
            webSockets.close();
        }
    }

    /** Broadcasts one message to each client's channel, waits until every client has it, then closes them all. */
    private void deliverOneEachThenClose(List<Client> burst, java.util.function.Function<Client, String> channel,
            java.util.function.Function<Client, String> payload, int opened) throws Exception {
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        for (Client client : burst) {
            commits.add(cable.broadcast(channel.apply(client), payload.apply(client)).toCompletableFuture());
        }
        CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).get(BURST_WAIT.toSeconds(), TimeUnit.SECONDS);
        awaitAll(burst, Client::received, "received its room's broadcast", opened);
        for (Client client : burst) {
            assertThat(client.ended()).isNotDone();
            client.socket().close();
        }
    }

    private static void awaitAll(List<Client> burst, java.util.function.Function<Client, CompletableFuture<Void>> step,
            String what, int opened) throws Exception {
        try {
            CompletableFuture.allOf(burst.stream().map(step).toArray(CompletableFuture[]::new))
                    .get(BURST_WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            long missing = burst.stream().filter(client -> !step.apply(client).isDone()).count();
            long closed = burst.stream().filter(client -> !step.apply(client).isDone() && client.ended().isDone())
                    .count();
            throw new AssertionError(missing + " of " + BURST + " connections opened after " + opened + " never "
                    + what + " within " + BURST_WAIT + " (" + closed + " of them closed); "
                    + ThreadDumps.write("stream-ready-stress"), e);
        }
    }
}
