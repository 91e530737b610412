package io.quarkiverse.cable.it.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;

/** Channels streamed to WebSockets Next endpoints, with real WebSocket clients. */
@DatabaseIndependent
@QuarkusTest
public class WebSocketStreamsTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    Vertx vertx;

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Test
    void broadcastReachesEveryConnectionOfTheRoom() throws Exception {
        String room = "every-" + System.nanoTime();
        List<WsClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                clients.add(WsClient.connect(vertx, base, "/rooms/" + room).awaitFrame("ready"));
            }
            commit("room:" + room, "{\"text\":\"hello\"}");
            for (WsClient client : clients) {
                assertThat(client.awaitFrames(2).received).containsExactly("ready", "{\"text\":\"hello\"}");
            }
        } finally {
            closeAll(clients);
        }
    }

    @Test
    void roomsAreIsolatedAndClosingUnsubscribes() throws Exception {
        String a = "iso-a-" + System.nanoTime();
        String b = "iso-b-" + System.nanoTime();
        try (WsClient inA = WsClient.connect(vertx, base, "/rooms/" + a).awaitFrame("ready");
                WsClient inB = WsClient.connect(vertx, base, "/rooms/" + b).awaitFrame("ready")) {
            commit("room:" + a, "for a");
            commit("room:" + b, "for b");
            assertThat(inA.awaitFrames(2).received).containsExactly("ready", "for a");
            assertThat(inB.awaitFrames(2).received).containsExactly("ready", "for b");
            assertThat(engine.subscribersByChannel()).containsKeys("room:" + a, "room:" + b);
        }
        await().atMost(Collector.TIMEOUT).until(() -> !engine.subscribersByChannel()
                .containsKey("room:" + a) && !engine.subscribersByChannel().containsKey("room:" + b));
    }

    @Test
    void tenThousandMessagesArriveInOrder() throws Exception {
        String room = "burst-" + System.nanoTime();
        try (WsClient client = WsClient.connect(vertx, base, "/rooms/" + room).awaitFrame("ready")) {
            // Sent in chunks that each wait for their commit: one channel may hold only its share of the writer
            // queue (writer.max-queued-per-channel, 2,500 by default), and that share is not what this test is about.
            for (int start = 0; start < 10_000; start += 1_000) {
                List<CompletableFuture<Void>> commits = new ArrayList<>();
                for (int i = start; i < start + 1_000; i++) {
                    commits.add(cable.broadcast("room:" + room, Integer.toString(i)).toCompletableFuture());
                }
                CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            }
            client.awaitFrames(10_001);
            List<String> expected = new ArrayList<>(List.of("ready"));
            IntStream.range(0, 10_000).mapToObj(Integer::toString).forEach(expected::add);
            assertThat(client.received).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void dynamicStreamsStartAndStop() throws Exception {
        String first = "dyn-1-" + System.nanoTime();
        String second = "dyn-2-" + System.nanoTime();
        try (WsClient client = WsClient.connect(vertx, base, "/feed")) {
            client.send("start:" + first);
            client.awaitFrame("started:" + first);
            commit(first, "one");
            client.awaitFrame("one");

            client.send("stop:" + first);
            client.awaitFrame("stopped:" + first);
            commit(first, "not after stop");
            client.send("start:" + second);
            client.awaitFrame("started:" + second);
            commit(second, "two");
            client.awaitFrame("two");
            assertThat(client.received).containsExactly("started:" + first, "one", "stopped:" + first,
                    "started:" + second, "two");
        }
    }

    @Test
    void callbacksRunOnVirtualThreadsOffThePoller() throws Exception {
        String channel = "shout-" + System.nanoTime();
        try (WsClient client = WsClient.connect(vertx, base, "/feed")) {
            client.send("shout:" + channel);
            client.awaitFrame("started:" + channel);
            commit(channel, "hi");
            client.awaitFrames(2);
            String[] shouted = client.received.get(1).split("\\|");
            assertThat(shouted[0]).isEqualTo("HI");
            assertThat(shouted[1]).as("virtual thread").isEqualTo("true");
            assertThat(shouted[2]).doesNotStartWith("cable-poller").doesNotContain("eventloop");
        }
    }

    @Test
    void confirmationsReachTheEndpointOnItsContextNeverOnThePoller() throws Exception {
        // The poller confirms a stream on its own thread; what the endpoint chained on the confirmation (here a
        // reply, as WebSockets Next sends an @OnOpen result) must not run there.
        try (WsClient client = WsClient.connect(vertx, base, "/feed")) {
            for (int i = 0; i < 20; i++) {
                client.send("where:where-" + i + "-" + System.nanoTime());
            }
            client.awaitFrames(20);
            assertThat(client.received).hasSize(20).allSatisfy(frame -> assertThat(frame)
                    .startsWith("confirmed-on:vert.x-eventloop-thread-"));
        }
    }

    @Test
    void aChannelOverTheLimitRejectsTheConnectionWithAReason() throws Exception {
        // The rejection is decided while WebSockets Next is still setting the connection up; closing the socket at
        // that moment made its next step throw "WebSocket is closed" into Vert.x (and once failed the client's
        // upgrade instead of sending the reason). Every such throw reaches Vert.x's exception handler: none may.
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        Handler<Throwable> quarkusHandler = vertx.exceptionHandler();
        vertx.exceptionHandler(failure -> {
            uncaught.add(failure);
            if (quarkusHandler != null) {
                quarkusHandler.handle(failure);
            }
        });
        try {
            for (int attempt = 0; attempt < 20; attempt++) {
                try (WsClient client = WsClient.connect(vertx, base, "/rooms/" + "r".repeat(1100))) {
                    assertThat(client.closeStatus.get(30, TimeUnit.SECONDS)).as("attempt %d", attempt)
                            .isEqualTo((short) 1008);
                    // The reason names what happened, never a setting of the server (Security page).
                    assertThat(client.closeReason).isEqualTo("cable: stream refused");
                }
            }
        } finally {
            vertx.exceptionHandler(quarkusHandler);
        }
        assertThat(uncaught).as("exceptions thrown into Vert.x while rejecting").isEmpty();
    }

    private void commit(String channel, String payload) throws Exception {
        cable.broadcast(channel, payload).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static void closeAll(List<WsClient> clients) throws Exception {
        for (WsClient client : clients) {
            client.close();
        }
    }
}
